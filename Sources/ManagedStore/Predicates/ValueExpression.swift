/// An expression of the NSExpression subset that fetches and mapping models use.
public indirect enum ValueExpression: Equatable, Sendable, CustomStringConvertible {
    /// A literal value; nil is `nil`/`NULL`.
    case constant(AttributeValue?)
    /// A key path: `title`, `note.title`, or with a base, `$source.title`. An empty path with no
    /// base is `SELF`, the object being evaluated.
    case keyPath(base: ValueExpression?, components: [String])
    /// `$name`: a value supplied when the expression is evaluated (`$source`, `$manager`).
    case variable(String)
    /// `FUNCTION(target, "selector:", arguments…)`: asks the target to perform a selector.
    case function(target: ValueExpression, selector: String, arguments: [ValueExpression])
    /// `{a, b, c}`: a literal collection, for `IN`.
    case aggregate([ValueExpression])

    /// `SELF`: the object the expression is evaluated on.
    public static let evaluatedObject = ValueExpression.keyPath(base: nil, components: [])

    /// The expression in NSExpression's format syntax.
    public var description: String {
        switch self {
        case .constant(nil): "nil"
        case .constant(.string(let text)?): "\"\(text.replacingOccurrences(of: "\"", with: "\\\""))\""
        case .constant(.bool(let flag)?): flag ? "YES" : "NO"
        case .constant(let value?): value.displayText
        case .keyPath(nil, let components): components.isEmpty ? "SELF" : components.joined(separator: ".")
        case .keyPath(let base?, let components): ([base.description] + components).joined(separator: ".")
        case .variable(let name): "$\(name)"
        case .function(let target, let selector, let arguments):
            "FUNCTION(\(([target.description, "\"\(selector)\""] + arguments.map(\.description)).joined(separator: ", ")))"
        case .aggregate(let items): "{\(items.map(\.description).joined(separator: ", "))}"
        }
    }
}
