import Foundation
import ManagedStore

/// The typed readings of stored values the note book uses; nil when the value has another type.
extension AttributeValue {
    var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    var dataValue: Data? { if case .data(let bytes) = self { bytes } else { nil } }
    var dateValue: Date? { if case .date(let date) = self { date } else { nil } }
    var doubleValue: Double? { if case .double(let value) = self { value } else { nil } }
    var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }
    var uuidValue: UUID? { if case .uuid(let value) = self { value } else { nil } }
    /// A Boolean as stored (`.bool`), or a number read where a flag was expected.
    var boolValue: Bool? {
        switch self {
        case .bool(let flag): flag
        case .integer(let number): number != 0
        default: nil
        }
    }
}
