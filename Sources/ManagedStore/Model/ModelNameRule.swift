/// The names Xcode's model editor accepts, checked when any model is read (Xcode's files, `.mom`
/// files, a store's cached model), so that a name from a hand-edited or hostile file never
/// reaches the SQL built from it (`"evil INTEGER; CREATE TABLE pwned (x); --"` as an attribute
/// name is refused, naming it, before any statement is written). Each case is a kind of name,
/// as `ModelError.Reason.invalidName` reports it.
public enum ModelNameRule: String, Equatable, Sendable {
    /// An entity's name.
    case entity
    /// An attribute's or relationship's name.
    case property
    /// A fetch index's name.
    case fetchIndex = "fetch index"
    /// A configuration's name (configurations are not used, but their names are checked).
    case configuration

    /// Why Xcode would refuse a name, so a caller can tell an empty name from a misspelt one.
    public enum Problem: Equatable, Sendable {
        /// The name is empty.
        case empty
        /// A character other than an ASCII letter, digit or underscore.
        case characters
        /// An entity name that does not start with an upper-case letter.
        case notUpperCaseStart
        /// A property name that does not start with a lower-case letter.
        case notLowerCaseStart
        /// A fetch index's or configuration's name that starts with a digit.
        case digitStart
    }

    /// Why Xcode would refuse the name, or nil when it is one Xcode accepts: ASCII letters, digits
    /// and underscores, not starting with a digit; an entity's starting with an upper-case
    /// letter, a property's with a lower-case one.
    func refusal(of name: String) -> ModelError.Reason? {
        problem(with: name).map { .invalidName(self, name: name, problem: $0) }
    }

    private func problem(with name: String) -> Problem? {
        let bytes = Array(name.utf8)
        guard let first = bytes.first else { return .empty }
        guard bytes.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: "_") }) else {
            return .characters
        }
        switch self {
        case .entity where !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first): return .notUpperCaseStart
        case .property where !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first): return .notLowerCaseStart
        case .fetchIndex, .configuration: return Self.isDigit(first) ? .digitStart : nil
        default: return nil
        }
    }

    /// The refusal in words, naming the name escaped so a hostile one cannot forge a message.
    func refusalText(of name: String, _ problem: Problem) -> String {
        let described = "\(rawValue) name \(name.debugDescription) is not valid"
        return switch problem {
        case .empty: "the \(rawValue) name is empty"
        case .characters: "\(described): only letters, digits and underscores (A-Z, a-z, 0-9, _) are allowed"
        case .notUpperCaseStart: "\(described): an entity name starts with an upper-case letter"
        case .notLowerCaseStart: "\(described): a property name starts with a lower-case letter"
        case .digitStart: "\(described): a name does not start with a digit"
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
