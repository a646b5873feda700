/// How Core Data prints a derived attribute's expression, which feeds that attribute's version hash.
///
/// Xcode writes the derivation as typed (`pages.@count`); Core Data turns a key path ending in an
/// aggregate into a function expression when the model loads (`count:(pages)`), and hashes that
/// expression's `predicateFormat`. Other derivations (`name`, `canonical:(name)`, `now()`) are
/// already printed as Xcode writes them.
enum DerivationFormat {
    private static let aggregates: [(suffix: String, function: String)] = [
        (".@count", "count:"), (".@sum", "sum:"), (".@total", "sum:"),
    ]

    static func predicateFormat(of derivation: String) -> String {
        for aggregate in aggregates where derivation.hasSuffix(aggregate.suffix) {
            let keyPath = derivation.dropLast(aggregate.suffix.count)
            return "\(aggregate.function)(\(keyPath))"
        }
        return derivation
    }
}

extension DerivationFormat {
    /// An archived derivation (a compiled model's NSExpression) as Core Data prints it: functions
    /// on `_NSPredicateUtilities` as `count:(pages)`, key paths as `author.name`.
    static func predicateFormat(of expression: ValueExpression) -> String {
        switch expression {
        case .function(.constant(nil), let selector, let arguments):
            "\(selector)(\(arguments.map { predicateFormat(of: $0) }.joined(separator: ", ")))"
        default:
            expression.description
        }
    }
}
