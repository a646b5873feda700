/// The attribute types of Core Data, spelled as Xcode writes them in `attributeType`.
public enum AttributeType: String, CaseIterable, Sendable, Codable {
    /// A 16-bit integer, range-checked on save.
    case integer16 = "Integer 16"
    /// A 32-bit integer, range-checked on save.
    case integer32 = "Integer 32"
    /// A 64-bit integer.
    case integer64 = "Integer 64"
    /// A decimal number.
    case decimal = "Decimal"
    /// A double-precision number.
    case double = "Double"
    /// A single-precision number, stored as a double.
    case float = "Float"
    /// Text.
    case string = "String"
    /// A flag, stored as 0 or 1.
    case boolean = "Boolean"
    /// A moment, stored as seconds since 2001-01-01 UTC.
    case date = "Date"
    /// Bytes, possibly kept in a file beside the store (external storage).
    case binary = "Binary"
    /// A UUID, stored as 16 bytes.
    case uuid = "UUID"
    /// A URL, stored as text.
    case uri = "URI"
    /// Any value a named value transformer turns into bytes.
    case transformable = "Transformable"
    /// Another object's identity, stored as an integer.
    case objectID = "Object ID"

    /// Reads Xcode's spelling. `Object ID`'s spelling in model files is unverified, so the
    /// spelling without the space is accepted too.
    public init?(xcodeName: String) {
        if xcodeName == "ObjectID" {
            self = .objectID
        } else {
            self.init(rawValue: xcodeName)
        }
    }

    /// The number Core Data feeds into an attribute's version hash.
    public var versionHashCode: UInt32 {
        switch self {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        }
    }

    /// Whether values are whole numbers (Integer 16, 32 or 64), stored and compared as such.
    public var isInteger: Bool {
        self == .integer16 || self == .integer32 || self == .integer64
    }
}
