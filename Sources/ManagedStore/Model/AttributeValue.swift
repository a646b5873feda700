import Foundation

/// A value of one attribute, typed the way the store keeps it.
///
/// Default values, managed objects and migrations all speak this one type, so a value read from a
/// model file, an old store or an expression can be compared and written without conversions.
public enum AttributeValue: Hashable, Sendable {
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
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
