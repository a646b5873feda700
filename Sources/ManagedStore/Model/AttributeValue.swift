import Foundation

/// A value of one attribute, typed the way the store keeps it.
///
/// Default values, managed objects and migrations all speak this one type, so a value read from a
/// model file, an old store or an expression can be compared and written without conversions.
public enum AttributeValue: Hashable, Sendable {
    /// Integer 16, 32 and 64 and Object ID values.
    case integer(Int64)
    /// Double and Float values.
    case double(Double)
    /// Decimal values.
    case decimal(Decimal)
    /// String values.
    case string(String)
    /// Boolean values.
    case bool(Bool)
    /// Date values.
    case date(Date)
    /// Binary values, and Transformable ones as their transformer encoded them.
    case data(Data)
    /// UUID values.
    case uuid(UUID)
    /// URI values.
    case uri(URL)

    /// A short, human-readable rendering for listings (`model show`, exports).
    public var displayText: String {
        switch self {
        case .integer(let value): String(value)
        case .double(let value): String(value)
        case .decimal(let value): "\(value)"
        case .string(let value): value
        case .bool(let value): value ? "YES" : "NO"
        case .date(let value): value.formatted(.iso8601)
        case .data(let value): "<\(value.count) bytes>"
        case .uuid(let value): value.uuidString
        case .uri(let value): value.absoluteString
        }
    }
}
