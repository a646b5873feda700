import Foundation
package import GRDB

/// How attribute values are written to and read from SQLite columns, as Core Data encodes them:
/// dates as seconds since 2001-01-01, UUIDs as 16 bytes, booleans as 0/1, decimals as numbers.
package enum StoreValueCoding {
    package static func databaseValue(_ value: AttributeValue?) -> DatabaseValue {
        guard let value else { return .null }
        switch value {
        case .integer(let number): return number.databaseValue
        case .double(let number): return number.databaseValue
        case .decimal(let number): return NSDecimalNumber(decimal: number).doubleValue.databaseValue
        case .string(let text): return text.databaseValue
        case .bool(let flag): return (flag ? 1 : 0).databaseValue
        case .date(let date): return date.timeIntervalSinceReferenceDate.databaseValue
        case .data(let bytes): return bytes.databaseValue
        case .uuid(let uuid): return withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue
        case .uri(let url): return url.absoluteString.databaseValue
        }
    }

    /// Reads a column as the attribute's type; a value the type cannot hold is an error naming it.
    package static func attributeValue(_ value: DatabaseValue, type: AttributeType) throws -> AttributeValue? {
        switch value.storage {
        case .null:
            return nil
        case .int64(let number):
            return try fromNumber(Double(number), integer: number, type: type)
        case .double(let number):
            return try fromNumber(number, integer: Int64(exactly: number.rounded(.towardZero)), type: type)
        case .string(let text):
            return try fromText(text, type: type)
        case .blob(let bytes):
            return try fromBlob(bytes, type: type)
        }
    }

    private static func fromNumber(_ number: Double, integer: Int64?, type: AttributeType) throws -> AttributeValue {
        switch type {
        case .integer16, .integer32, .integer64, .objectID:
            guard let integer else { throw mismatch("a number out of range", type) }
            return .integer(integer)
        case .boolean: return .bool(number != 0)
        case .double, .float: return .double(number)
        case .decimal:
            // SQLite stores 9e999 as infinity, which `Decimal` cannot hold (its initializer traps).
            guard number.isFinite, let decimal = Decimal(string: String(number)) else {
                throw mismatch("a number out of a decimal's range", type)
            }
            return .decimal(decimal)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: number))
        case .string: return .string(integer.map(String.init) ?? String(number))
        default: throw mismatch("a number", type)
        }
    }

    private static func fromText(_ text: String, type: AttributeType) throws -> AttributeValue {
        switch type {
        case .string: return .string(text)
        case .uri:
            guard let url = URL(string: text) else { throw mismatch("text that is not a URI", type) }
            return .uri(url)
        case .decimal:
            guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw mismatch("text", type)
            }
            return .decimal(number)
        case .binary, .transformable: return .data(Data(text.utf8))
        default: throw mismatch("text", type)
        }
    }

    private static func fromBlob(_ bytes: Data, type: AttributeType) throws -> AttributeValue {
        switch type {
        case .binary, .transformable: return .data(bytes)
        case .uuid:
            guard bytes.count == 16 else { throw mismatch("a blob of \(bytes.count) bytes", type) }
            let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
            return .uuid(UUID(uuid: uuid))
        case .string: return .string(String(decoding: bytes, as: UTF8.self))
        default: throw mismatch("a blob", type)
        }
    }

    private static func mismatch(_ found: String, _ type: AttributeType) -> ValueDecodingError {
        ValueDecodingError(found: found, type: type)
    }
}

/// A stored value that its attribute's type cannot hold, before it is located: the caller that
/// knows the entity, attribute and row reports it as a `StoreError`.
package struct ValueDecodingError: Error, Equatable, CustomStringConvertible {
    package let found: String
    package let type: AttributeType

    package var description: String { StoreProblem.unreadableValue(found: found, type: type.rawValue).description }
}
