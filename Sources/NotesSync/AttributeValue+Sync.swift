import Foundation
import ManagedStore

/// The readings sync needs beyond the note book's: v5's identifiers and pins.
extension AttributeValue {
    var uuidValue: UUID? { if case .uuid(let value) = self { value } else { nil } }
    var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        default: nil
        }
    }
}
