import Foundation
import ManagedStore

/// The typed readings of stored values the note book (and sync) use; nil when the value has another type.
extension AttributeValue {
    package var stringValue: String? { if case .string(let text) = self { text } else { nil } }
    package var dataValue: Data? { if case .data(let bytes) = self { bytes } else { nil } }
    package var dateValue: Date? { if case .date(let date) = self { date } else { nil } }
    package var doubleValue: Double? { if case .double(let value) = self { value } else { nil } }
    package var integerValue: Int64? { if case .integer(let value) = self { value } else { nil } }
    package var uuidValue: UUID? { if case .uuid(let value) = self { value } else { nil } }
    /// A Boolean as stored (`.bool`), or a number read where a flag was expected.
    package var boolValue: Bool? {
        switch self {
        case .bool(let flag): flag
        case .integer(let number): number != 0
        default: nil
        }
    }
}
