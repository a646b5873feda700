internal import GRDB

extension String {
    /// This name in double quotes, any double quote in it doubled, as SQLite reads a quoted
    /// identifier. (GRDB's `quotedDatabaseIdentifier` and `\(identifier:)` add the quotes but
    /// leave a quote inside the name as it is, so a name could close them.)
    package var quotedSQLIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// This table, column or index name as SQL text. Core Data's own names (`ZNOTE`, `Z_1TAGS`,
    /// `Z_Note_byTitle`: a `Z`, then ASCII letters, digits and underscores; no SQLite keyword
    /// starts with `Z`) are written as they are, so stores keep the DDL Core Data writes; any
    /// other name is quoted, so no name, whatever a model file holds, can end a statement or
    /// start another. Model names are also checked when a model is read (`ModelNameRule`).
    package var sqlIdentifier: String {
        isPlainCoreDataName ? self : quotedSQLIdentifier
    }

    private var isPlainCoreDataName: Bool {
        first == "Z" && utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        }
    }
}

extension SQLInterpolation {
    /// `\(identifier: name)` in the engine's SQL literals: `name` in double quotes, any double
    /// quote in it doubled (`quotedSQLIdentifier`). Declared here, it shadows GRDB's own
    /// `\(identifier:)` in this module, which leaves an inner quote as it is: a table name read
    /// from a store file (`UnownedTables`) could otherwise close the quotes.
    mutating func appendInterpolation(identifier name: String) {
        appendInterpolation(sql: name.quotedSQLIdentifier)
    }

    /// `\(coreDataName: name)`: a table or column name as Core Data writes it in its own SQL
    /// (`String.sqlIdentifier`: `ZNOTE` as it is, any other name quoted), so the statements of a
    /// save read in the SQL log as Core Data's do.
    mutating func appendInterpolation(coreDataName name: String) {
        appendInterpolation(sql: name.sqlIdentifier)
    }
}

