/// A predicate of the NSPredicate subset that fetches and mapping models use.
public indirect enum ObjectPredicate: Equatable, Sendable, CustomStringConvertible {
    case constant(Bool)
    case comparison(ValueExpression, ComparisonOperator, ValueExpression, ComparisonOptions)
    case and([ObjectPredicate])
    case or([ObjectPredicate])
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
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
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
