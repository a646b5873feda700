import Foundation

/// The FTS5 query that finds a folded pattern's candidates in a text index kept without
/// positions (`detail = none`, where FTS5 refuses phrases): every distinct trigram of the
/// pattern, each a quoted term, all required.
enum TextIndexQuery {
    /// `"abc" "bcd" …` for the pattern `abcd…` (three Unicode scalars or more, as the trigram
    /// tokenizer counts characters); each trigram once, in the pattern's order.
    static func trigrams(of folded: String) -> String {
        let scalars = Array(folded.unicodeScalars)
        guard scalars.count >= TextIndexConfiguration.shortestTrigramPattern else { return quoted(folded) }
        var seen = Set<String>()
        var terms: [String] = []
        for start in 0...(scalars.count - 3) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let term = String(trigram)
            if seen.insert(term).inserted { terms.append(quoted(term)) }
        }
        return terms.joined(separator: " ")
    }

    /// A term as FTS5 reads a string: in double quotes, each quote doubled.
    private static func quoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
