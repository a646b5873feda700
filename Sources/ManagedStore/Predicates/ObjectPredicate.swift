/// A predicate of the NSPredicate subset that fetches and mapping models use.
public indirect enum ObjectPredicate: Equatable, Sendable, CustomStringConvertible {
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)
    /// `lhs op rhs`, with `[c]`/`[d]` options for text operators.
    case comparison(ValueExpression, ComparisonOperator, ValueExpression, ComparisonOptions)
    /// All of the predicates hold.
    case and([ObjectPredicate])
    /// Any of the predicates holds.
    case or([ObjectPredicate])
    /// The predicate does not hold.
    case not(ObjectPredicate)

    /// Parses NSPredicate's format syntax, e.g. `title CONTAINS[cd] "milk" AND image != nil`.
    public init(format: String) throws {
        var parser = try PredicateParser(format)
        self = try parser.parsePredicate()
    }

    /// The predicate in NSPredicate's format, which `init(format:)` reads back.
    public var description: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let lhs, let op, let rhs, let options):
            "\(lhs) \(op.rawValue)\(options.isEmpty ? "" : "[\(options.formatSuffix)]") \(rhs)"
        case .and(let parts): parts.map { "(\($0))" }.joined(separator: " AND ")
        case .or(let parts): parts.map { "(\($0))" }.joined(separator: " OR ")
        case .not(let inner): "NOT (\(inner))"
        }
    }
}

/// The comparison operators of NSPredicate's format, spelled as it spells them.
public enum ComparisonOperator: String, Sendable, CaseIterable {
    /// Equal values.
    case equal = "=="
    /// Different values.
    case notEqual = "!="
    /// Less than.
    case less = "<"
    /// Less than or equal.
    case lessOrEqual = "<="
    /// Greater than.
    case greater = ">"
    /// Greater than or equal.
    case greaterOrEqual = ">="
    /// Text that starts with the right side.
    case beginsWith = "BEGINSWITH"
    /// Text that ends with the right side.
    case endsWith = "ENDSWITH"
    /// Text that holds the right side anywhere (the list's search, with `[cd]`).
    case contains = "CONTAINS"
    /// Text matching a pattern with `*` and `?` wildcards.
    case like = "LIKE"
    /// Text wholly matching a regular expression.
    case matches = "MATCHES"
    case `in` = "IN"

    /// The operators that compare text and honour `[c]` and `[d]`.
    var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: true
        default: false
        }
    }
}

/// `[c]` case-insensitive, `[d]` diacritic-insensitive.
public struct ComparisonOptions: OptionSet, Hashable, Sendable {
    /// The options as bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: `A` and `a` compare equal.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: `é` and `e` compare equal.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)

    var formatSuffix: String {
        (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
    }
}
