import Foundation

/// Decodes `valueexpressiondata`: an NSKeyedArchiver archive of an NSExpression, as Xcode stores a
/// custom value expression in a mapping model. The expression kinds that occur in mapping models
/// are read: constants, SELF, variables, key paths (including `$source.key`), functions and
/// aggregates.
enum ArchivedExpressionDecoder {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(_ data: Data) throws -> ValueExpression {
        let archive = try KeyedArchive(data)
        return try archive.expression(archive.root)
    }

    /// An archived NSDictionary of strings (an entity mapping's `userinfodata`).
    static func decodeStringDictionary(_ data: Data) throws -> [String: String] {
        let archive = try KeyedArchive(data)
        guard case .dictionary(let dictionary) = archive.root,
              case .array(let keys)? = dictionary["NS.keys"], case .array(let values)? = dictionary["NS.objects"],
              keys.count == values.count else {
            throw Failure(description: "not an archived dictionary")
        }
        var result: [String: String] = [:]
        for (key, value) in zip(keys, values) {
            guard case .string(let name) = archive.resolve(key) else { continue }
            result[name] = archive.text(archive.resolve(value))
        }
        return result
    }
}

/// Archived expressions nest a few levels; a cycle of operands must not recurse without end.
private let maximumExpressionDepth = 64

extension KeyedArchive {
    func expression(_ value: PropertyListValue, depth: Int = 0) throws -> ValueExpression {
        guard depth < maximumExpressionDepth else {
            throw ArchivedExpressionDecoder.Failure(description: "the archived expression nests too deeply")
        }
        guard case .dictionary(let object) = resolve(value), let className = className(of: object) else {
            throw ArchivedExpressionDecoder.Failure(description: "expected an archived expression")
        }
        switch className {
        case "NSConstantValueExpression":
            return .constant(try constant(object["NSConstantValue"].map(resolve) ?? .null))
        case "NSSelfExpression":
            return .evaluatedObject
        case "NSVariableExpression":
            guard let name = object["NSVariable"].flatMap({ text(resolve($0)) }) else {
                throw ArchivedExpressionDecoder.Failure(description: "a variable expression without a name")
            }
            return .variable(name)
        case "NSKeyPathSpecifierExpression":
            return .constant(object["NSKeyPath"].flatMap { text(resolve($0)) }.map(AttributeValue.string))
        case "NSAggregateExpression":
            return .aggregate(try array(object["NSCollection"]).map { try expression($0, depth: depth + 1) })
        case "NSKeyPathExpression", "NSFunctionExpression":
            return try function(object, className: className, depth: depth)
        default:
            throw ArchivedExpressionDecoder.Failure(description: "unsupported expression class \(className)")
        }
    }

    /// Functions, and key paths, which Foundation archives as `valueForKey(Path):` functions.
    private func function(_ object: [String: PropertyListValue], className: String,
                          depth: Int) throws -> ValueExpression {
        guard let selector = object["NSSelectorName"].flatMap({ text(resolve($0)) }) else {
            throw ArchivedExpressionDecoder.Failure(description: "\(className) without a selector")
        }
        let operand = try object["NSOperand"].map { try expression($0, depth: depth + 1) } ?? .evaluatedObject
        let arguments = try array(object["NSArguments"]).map { try expression($0, depth: depth + 1) }
        if selector == "valueForKey:" || selector == "valueForKeyPath:",
           arguments.count == 1, case .constant(.string(let path)?) = arguments[0] {
            let components = path.split(separator: ".").map(String.init)
            switch operand {
            case .keyPath(let base, let earlier): return .keyPath(base: base, components: earlier + components)
            case .variable: return .keyPath(base: operand, components: components)
            default: return .keyPath(base: nil, components: components)
            }
        }
        return .function(target: operand, selector: selector, arguments: arguments)
    }

    private func constant(_ value: PropertyListValue) throws -> AttributeValue? {
        switch value {
        case .null: return nil
        case .string(let text): return text == "$null" ? nil : .string(text)
        case .integer(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .date(let date): return .date(date)
        case .data(let bytes): return .data(bytes)
        case .dictionary(let dictionary):
            if let text = text(value) { return .string(text) }
            if case .real(let seconds)? = dictionary["NS.time"] { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
            if className(of: dictionary) == "NSNull" { return nil }
            throw ArchivedExpressionDecoder.Failure(description: "unsupported constant of class \(className(of: dictionary) ?? "?")")
        default:
            throw ArchivedExpressionDecoder.Failure(description: "unsupported constant")
        }
    }
}
