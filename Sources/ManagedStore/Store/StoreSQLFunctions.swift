import Foundation
import GRDB

/// SQL functions the engine registers on every connection.
enum StoreSQLFunctions {
    /// `MS_COMPARE(operator, options, lhs, rhs)`: a predicate comparison run by the same code as
    /// the in-memory evaluator, for what SQLite cannot do natively (`CONTAINS[cd]`, `LIKE`,
    /// `MATCHES`, Unicode-aware case folding). Returns 1 or 0, never NULL.
    static let compare = DatabaseFunction("MS_COMPARE", argumentCount: 4, pure: true) { values in
        guard let name = String.fromDatabaseValue(values[0]),
              let op = ComparisonOperator(rawValue: name),
              let options = Int.fromDatabaseValue(values[1]) else { return 0 }
        let result = ScalarComparison.compare(scalar(values[2]), op, scalar(values[3]),
                                              options: ComparisonOptions(rawValue: options))
        return result ? 1 : 0
    }

    static func register(in db: Database) {
        db.add(function: compare)
    }

    private static func scalar(_ value: DatabaseValue) -> SQLiteScalar {
        switch value.storage {
        case .null: .null
        case .int64(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .string(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }
}
