import Foundation

/// What is wrong with a note file's front matter, as one line a person can act on: the YAML
/// reader's and the decoder's errors name the field and the problem, not Swift's dump of a
/// `DecodingError` with its coding path and context.
enum FrontMatterProblem {
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "the field \(key.stringValue) is missing"
        case DecodingError.typeMismatch(_, let context):
            return "\(field(context)) is not \(expected(context))"
        case DecodingError.valueNotFound(_, let context):
            return "\(field(context)) has no value (\(expected(context)) expected)"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "it is not a YAML mapping of fields" : "\(field(context)) cannot be read"
        default:
            // The YAML reader's own message: its first line says what and where.
            let text = "\(error)".split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return text.first.map { "it is not valid YAML (\($0))" } ?? "it is not valid YAML"
        }
    }

    private static func field(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "item \($0 + 1)" } ?? $0.stringValue }
        return path.isEmpty ? "the front matter" : "the field " + path.joined(separator: ", ")
    }

    /// What the field holds, in words (the decoder names its own node types, not the field's).
    private static func expected(_ context: DecodingError.Context) -> String {
        switch context.codingPath.last(where: { $0.intValue == nil })?.stringValue {
        case "pinned": "true or false"
        case "width", "height": "a number"
        case "tags": "a list of tag names"
        case "images": "a list of images"
        default: "text"
        }
    }
}
