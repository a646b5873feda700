import Foundation

/// The folding `CONTAINS[cd]` applies, for callers that keep their own index of folded text
/// (a search index beside the store): text folded here contains a folded pattern exactly when
/// the predicate `text CONTAINS[cd] pattern` holds, byte for byte.
public enum SearchFolding {
    /// The text without case and accents, as the predicate evaluator and SQL search see it.
    public static func caseAndAccentFolded(_ text: String) -> String {
        StringMatching.fold(text, [.caseInsensitive, .diacriticInsensitive])
    }
}
