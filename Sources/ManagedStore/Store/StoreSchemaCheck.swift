internal import GRDB

/// Checks, when a store is opened, that every table and column the model lays out is there with
/// the type affinity the engine reads it as. A store whose metadata names the model can still
/// have lost a column or a table (by hand, or by another tool); refusing it here, naming what is
/// missing, is better than failing on the first row that needs it.
struct StoreSchemaCheck {
    let schema: StoreSchema

    /// The first difference found, in table order; nil when the store has everything.
    func firstMismatch(in db: Database) throws -> StoreMismatch? {
        for (table, columns) in expectedTables {
            let declared = try declaredColumns(of: table, in: db)
            guard !declared.isEmpty else { return .missingTable(table) }
            for column in columns {
                guard let type = declared[column.name.uppercased()] else {
                    return .missingColumn(table: table, column: column.name)
                }
                if Affinity(declaredType: type) != Affinity(declaredType: column.type) {
                    return .columnType(table: table, column: column.name, declared: type, expected: column.type)
                }
            }
        }
        return nil
    }

    /// Table name -> the columns the engine reads and writes, with their declared types.
    private var expectedTables: [(String, [(name: String, type: String)])] {
        let bookkeeping = ["Z_PK", "Z_ENT", "Z_OPT"].map { (name: $0, type: ColumnType.integer.rawValue) }
        let entityTables = schema.tables.map { table in
            (table.name, bookkeeping + table.columns.map { (name: $0.name, type: $0.type.rawValue) })
        }
        let joinTables = schema.joinTables.map { table in
            (table.name, ([table.firstColumn, table.secondColumn] + table.orderColumns)
                .map { (name: $0, type: ColumnType.integer.rawValue) })
        }
        let primaryKeys = ("Z_PRIMARYKEY", [("Z_ENT", "INTEGER"), ("Z_NAME", "VARCHAR"), ("Z_SUPER", "INTEGER"),
                                            ("Z_MAX", "INTEGER")].map { (name: $0.0, type: $0.1) })
        return entityTables + joinTables + [primaryKeys]
    }

    /// Upper-cased column name -> declared type; empty when the table does not exist.
    private func declaredColumns(of table: String, in db: Database) throws -> [String: String] {
        let rows = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table])
        var columns: [String: String] = [:]
        for row in rows {
            let name: String? = try row.decode(forColumn: "name")
            let type: String? = try row.decode(forColumn: "type")
            if let name { columns[name.uppercased()] = type ?? "" }
        }
        return columns
    }
}

/// SQLite's column affinity, derived from a declared type by its documented rules
/// (https://www.sqlite.org/datatype3.html#determination_of_column_affinity).
enum Affinity: Equatable {
    case integer, text, blob, real, numeric

    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}
