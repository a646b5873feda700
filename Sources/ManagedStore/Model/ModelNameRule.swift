/// The names Xcode's model editor accepts, checked when any model is read (Xcode's files, `.mom`
/// files, a store's cached model), so that a name from a hand-edited or hostile file never
/// reaches the SQL built from it (`"evil INTEGER; CREATE TABLE pwned (x); --"` as an attribute
/// name is refused, naming it, before any statement is written).
enum ModelNameRule: String, Sendable {
    case entity
    case property
    case fetchIndex = "fetch index"
    case configuration

    /// Why Xcode would refuse the name, or nil when it is one Xcode accepts: ASCII letters, digits
    /// and underscores, not starting with a digit; an entity's starting with an upper-case
    /// letter, a property's with a lower-case one.
    func refusal(of name: String) -> String? {
        let bytes = Array(name.utf8)
        guard let first = bytes.first else { return "the \(rawValue) name is empty" }
        let described = "\(rawValue) name \(name.debugDescription)"
        guard bytes.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: "_") }) else {
            return "\(described) is not valid: only letters, digits and underscores (A-Z, a-z, 0-9, _) are allowed"
        }
        switch self {
        case .entity where !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first):
            return "\(described) is not valid: an entity name starts with an upper-case letter"
        case .property where !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first):
            return "\(described) is not valid: a property name starts with a lower-case letter"
        case .fetchIndex, .configuration:
            return Self.isDigit(first) ? "\(described) is not valid: a name does not start with a digit" : nil
        default:
            return nil
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
