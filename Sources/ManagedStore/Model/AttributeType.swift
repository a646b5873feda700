/// The attribute types of Core Data, spelled as Xcode writes them in `attributeType`.
public enum AttributeType: String, CaseIterable, Sendable, Codable {
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
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
