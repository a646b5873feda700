import Foundation

/// Reads an attribute's default value from the strings Xcode writes, checking it fits the type.
struct DefaultValueParser {
    let fileName: String
    let line: Int
    let entity: String
    let property: String

    func parse(type: AttributeType, string: String?, dateInterval: String?) throws -> AttributeValue? {
        if type == .date, let dateInterval {
            guard let seconds = Double(dateInterval) else { throw invalid(dateInterval, type) }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
        guard let string else { return nil }
        switch type {
        case .integer16, .integer32, .integer64:
            return .integer(try integer(string, type))
        case .double, .float:
            guard let value = Double(string) else { throw invalid(string, type) }
            return .double(value)
        case .decimal:
            guard let value = Decimal(string: string, locale: Locale(identifier: "en_US_POSIX")) else {
                throw invalid(string, type)
            }
            return .decimal(value)
        case .string:
            return .string(string)
        case .boolean:
            switch string {
            case "YES", "true", "1": return .bool(true)
            case "NO", "false", "0": return .bool(false)
            default: throw invalid(string, type)
            }
        case .date:
            guard let seconds = Double(string) else { throw invalid(string, type) }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid:
            guard let value = UUID(uuidString: string) else { throw invalid(string, type) }
            return .uuid(value)
        case .uri:
            guard let value = URL(string: string) else { throw invalid(string, type) }
            return .uri(value)
        case .binary, .transformable, .objectID:
            throw ModelError(file: fileName, line: line, entity: entity, property: property,
                             reason: .defaultValueNotAllowed(type: type))
        }
    }

    /// Integers within the type's range; Xcode writes whole numbers, sometimes as `0.0`.
    private func integer(_ string: String, _ type: AttributeType) throws -> Int64 {
        let value: Int64
        if let exact = Int64(string) {
            value = exact
        } else if let real = Double(string), real.rounded() == real, abs(real) < 9.2e18 {
            value = Int64(real)
        } else {
            throw invalid(string, type)
        }
        let limit: Int64 = switch type {
        case .integer16: Int64(Int16.max)
        case .integer32: Int64(Int32.max)
        default: Int64.max
        }
        guard value <= limit, value >= -limit - 1 else { throw invalid(string, type) }
        return value
    }

    private func invalid(_ text: String, _ type: AttributeType) -> ModelError {
        ModelError(file: fileName, line: line, entity: entity, property: property,
                   reason: .invalidDefaultValue(text, type: type))
    }
}
