/// What an expression evaluates to.
public enum ExpressionValue {
    /// No value (`nil`).
    case null
    /// One attribute value.
    case scalar(AttributeValue)
    /// An object whose key paths can be read (a managed object, a migration manager).
    case object(any KeyValueReadable)
    /// A literal collection, or the values of a to-many relationship.
    case collection([ExpressionValue])

    init(_ value: AttributeValue?) {
        self = value.map(ExpressionValue.scalar) ?? .null
    }

    /// Whether the value is nil (`nil` in a predicate, no value in a store).
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The scalar held, nil for anything else.
    public var scalarValue: AttributeValue? {
        if case .scalar(let value) = self { return value }
        return nil
    }
}

/// An object whose properties expressions can read by key (`$source.title`, `note.body`).
public protocol KeyValueReadable: AnyObject {
    func expressionValue(forKey key: String) throws -> ExpressionValue
}

/// An object that can be the target of `FUNCTION(target, "selector:", …)`.
public protocol ExpressionFunctionTarget: AnyObject {
    func perform(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue
}

/// Why an expression could not be evaluated.
public struct ExpressionEvaluationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, in words.
    public var message: String

    /// An error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
