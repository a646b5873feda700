/// Evaluates expressions and predicates in memory, against objects that can be read by key.
///
/// This is the path for what SQL cannot express (FUNCTION calls, unsaved objects, migration
/// value expressions); `PredicateSQLCompiler` is the fast path, and both agree on every answer.
public struct ExpressionEvaluator {
    /// Values for `$name` variables, e.g. `source`, `manager`, or a fetch's substitutions.
    public var variables: [String: ExpressionValue]

    /// An evaluator with values for the expressions' `$variables`.
    public init(variables: [String: ExpressionValue] = [:]) {
        self.variables = variables
    }

    /// The value of `expression` for `object` (what a key path without `$` starts from).
    public func evaluate(_ expression: ValueExpression, on object: ExpressionValue) throws -> ExpressionValue {
        switch expression {
        case .constant(let value):
            return ExpressionValue(value)
        case .variable(let name):
            guard let value = variables[name] else {
                throw ExpressionEvaluationError("no value for the variable $\(name)")
            }
            return value
        case .keyPath(let base, let components):
            var value = try base.map { try evaluate($0, on: object) } ?? object
            for key in components { value = try read(key, of: value) }
            return value
        case .function(let target, let selector, let arguments):
            let targetValue = try evaluate(target, on: object)
            guard case .object(let candidate) = targetValue,
                  let receiver = candidate as? any ExpressionFunctionTarget else {
                throw ExpressionEvaluationError("the target of FUNCTION(…, \"\(selector)\") cannot perform it")
            }
            return try receiver.perform(selector: selector, arguments: arguments.map { try evaluate($0, on: object) })
        case .aggregate(let items):
            return .collection(try items.map { try evaluate($0, on: object) })
        }
    }

    /// Whether `object` matches `predicate`, with the same comparison rules as the SQL path.
    public func evaluate(_ predicate: ObjectPredicate, on object: ExpressionValue) throws -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .and(let parts):
            for part in parts where try !evaluate(part, on: object) { return false }
            return true
        case .or(let parts):
            for part in parts where try evaluate(part, on: object) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner, on: object)
        case .comparison(let lhs, let op, let rhs, let options):
            return try compare(try evaluate(lhs, on: object), op, try evaluate(rhs, on: object), options)
        }
    }

    private func read(_ key: String, of value: ExpressionValue) throws -> ExpressionValue {
        switch value {
        case .null: return .null
        case .object(let object): return try object.expressionValue(forKey: key)
        case .collection(let items): return .collection(try items.map { try read(key, of: $0) })
        case .scalar: throw ExpressionEvaluationError("cannot read the key \"\(key)\" of a plain value")
        }
    }

    private func compare(_ lhs: ExpressionValue, _ op: ComparisonOperator, _ rhs: ExpressionValue,
                         _ options: ComparisonOptions) throws -> Bool {
        switch (lhs, rhs) {
        case (_, .collection(let items)) where op == .in:
            // NULL is never a member, as in SQL.
            if lhs.isNull { return false }
            return try items.contains { try compare(lhs, .equal, $0, options) }
        case (.collection, _), (_, .collection):
            throw ExpressionEvaluationError("a collection can only be the right side of IN")
        case (.object(let a), .object(let b)):
            switch op {
            case .equal: return a === b
            case .notEqual: return a !== b
            default: throw ExpressionEvaluationError("objects can only be compared with == and !=")
            }
        case (.object, _), (_, .object):
            switch op {
            case .equal: return false
            case .notEqual: return true
            default: throw ExpressionEvaluationError("objects can only be compared with == and !=")
            }
        default:
            return ScalarComparison.compare(SQLiteScalar(lhs.scalarValue), op, SQLiteScalar(rhs.scalarValue),
                                            options: options)
        }
    }
}
