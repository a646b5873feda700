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
