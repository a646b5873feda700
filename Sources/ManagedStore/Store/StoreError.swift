/// Why a store file could not be used. Always names the file; the file is never changed on error.
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// Set when the tables or rows differ from what the model lays out, so callers can tell a
    /// damaged or hand-edited store from one that is merely unreadable.
    public var mismatch: StoreMismatch?

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// A store whose metadata names the model but whose tables or rows do not follow it.
    public init(path: String, mismatch: StoreMismatch) {
        self.path = path
        self.reason = "the store does not match its model: \(mismatch)"
        self.mismatch = mismatch
    }

    public var description: String { "\(path): \(reason)" }
}

/// How a store's tables or rows differ from its model's layout. Such a store was damaged or
/// edited by hand: the engine refuses it rather than guess, and changes nothing.
public enum StoreMismatch: Error, Equatable, Sendable, CustomStringConvertible {
    case missingTable(String)
    case missingColumn(table: String, column: String)
    /// The column exists, but its declared type gives SQLite another affinity than the model's.
    case columnType(table: String, column: String, declared: String, expected: String)
    /// A row whose `Z_ENT` is NULL or names no entity stored in its table.
    case rowEntity(table: String, primaryKey: Int64, entityNumber: Int64?)
    /// A value the engine cannot read as its column's type (text in `Z_OPT`, 1e300 in a key…).
    case unreadableValue(table: String, column: String, primaryKey: Int64?, found: String)
    /// A value of an attribute that allows external storage whose tag, file name or file is wrong.
    case externalData(table: String, column: String, primaryKey: Int64, problem: ExternalDataProblem)
    /// A counter (`Z_MAX`, `Z_OPT`) at the largest value it can hold: nothing can be added.
    case exhaustedCounter(table: String, column: String)
    /// The store was written by another version of the model: these entities' hashes differ.
    case incompatibleModel(entities: [String])

    public var description: String {
        switch self {
        case .missingTable(let table):
            "it has no table \(table); restore it from a backup"
        case .missingColumn(let table, let column):
            "table \(table) has no column \(column); restore it from a backup"
        case .columnType(let table, let column, let declared, let expected):
            "column \(table).\(column) is declared \(declared.isEmpty ? "without a type" : declared), not \(expected)"
        case .rowEntity(let table, let primaryKey, let number):
            "row \(primaryKey) of \(table) has Z_ENT \(number.map(String.init) ?? "NULL"), "
                + "which is no entity stored in that table"
        case .unreadableValue(let table, let column, let primaryKey, let found):
            "\(table).\(column)\(primaryKey.map { " of row \($0)" } ?? "") holds \(found)"
        case .externalData(let table, let column, let primaryKey, let problem):
            "\(table).\(column) of row \(primaryKey) holds \(problem)"
        case .exhaustedCounter(let table, let column):
            "\(table).\(column) is at the largest number it can hold, so nothing more can be saved"
        case .incompatibleModel(let entities):
            "the model used to open the store is incompatible with the one used to create the store "
                + "(entities whose version hashes differ: \(entities.joined(separator: ", ")))"
        }
    }
}
