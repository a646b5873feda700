import Foundation
internal import GRDB
import GRDBSQLite

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

    /// Core Data's derived-attribute triggers (`DerivedAttributeTriggers`, and those in Apple's
    /// stores) call these to tell Core Data's context the value they wrote; the engine reads
    /// values from the rows, so they do nothing. Without them every write to such a table fails.
    static let derivedValueUpdated = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ].map { DatabaseFunction($0, argumentCount: 5, pure: false) { _ in nil } }

    static func register(in db: Database) {
        db.add(function: compare)
        derivedValueUpdated.forEach(db.add(function:))
        sqlite3_create_function_v2(db.sqliteConnection, "MS_FOLD_CONTAINS", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                   nil, foldContains, nil, nil, nil)
    }

    /// `MS_FOLD_CONTAINS(text, pattern, caseInsensitive)`: whether the text, without accents (and
    /// case), contains the already folded pattern. Registered directly with SQLite, reading the
    /// text's bytes in place: a search over 100,000 notes calls it for every row.
    private static let foldContains: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = { context, _, arguments in
        guard let arguments, let text = sqlite3_value_text(arguments[0]), let pattern = sqlite3_value_text(arguments[1]) else {
            sqlite3_result_int(context, 0)
            return
        }
        let textBytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(arguments[0])))
        let patternBytes = Array(UnsafeBufferPointer(start: pattern, count: Int(sqlite3_value_bytes(arguments[1]))))
        let folder = AccentFolder.folder(caseInsensitive: sqlite3_value_int(arguments[2]) != 0)
        sqlite3_result_int(context, folder.contains(textBytes, foldedPattern: patternBytes) ? 1 : 0)
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
