import Foundation

/// Errors as the one line a user reads: SQLite's and GRDB's messages can span lines (they quote
/// the SQL), and Foundation's errors describe themselves as `NSCocoaErrorDomain Code=…`.
public enum ErrorText {
    /// The error's text on one line: Cocoa errors by their localized description, others by their own.
    public static func oneLine(_ error: Error) -> String {
        let text: String
        switch error {
        case let cocoa as CocoaError: text = cocoa.localizedDescription
        case let described as CustomStringConvertible where !(type(of: error) is NSError.Type): text = described.description
        default: text = (error as NSError).localizedDescription
        }
        return oneLine(text)
    }

    /// Joins a text's lines and runs of spaces into single spaces.
    public static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
