/// The SQL that creates a store: Core Data's bookkeeping tables (exact DDL), one table per
/// hierarchy, join tables, and indexes.
public enum SchemaSQL {
    /// Core Data's `Z_PRIMARYKEY`: per entity, the largest primary key handed out.
    public static let primaryKeyTable =
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    /// Core Data's `Z_METADATA`: the store's UUID and its metadata property list.
    public static let metadataTable =
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    /// Core Data's `Z_MODELCACHE`: the compiled model, compressed, for migrations without the model.
    public static let modelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Every statement, tables before indexes, bookkeeping tables last (as Core Data orders them).
    public static func createStatements(for schema: StoreSchema) -> [String] {
        let tables = schema.tables.map(createTable)
        let joins = schema.joinTables.map(createJoinTable)
        let indexes = schema.tables.flatMap { table in table.indexes.map { createIndex($0, on: table.name) } }
            + schema.joinTables.map(createJoinIndex)
        return tables + joins + indexes + [primaryKeyTable, metadataTable, modelCacheTable]
    }

    /// `CREATE TABLE` for a hierarchy's table: `Z_PK`, `Z_ENT`, `Z_OPT`, then its columns.
    public static func createTable(_ table: TableStorage) -> String {
        let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            + table.columns.map { "\($0.name.sqlIdentifier) \($0.type.rawValue)" }
        return "CREATE TABLE \(table.name.sqlIdentifier) ( \(columns.joined(separator: ", ")) )"
    }

    /// `CREATE TABLE` for a many-to-many relationship's join table, keyed by both columns.
    public static func createJoinTable(_ table: JoinTable) -> String {
        let columns = ([table.firstColumn, table.secondColumn] + table.orderColumns).map(\.sqlIdentifier)
        let definitions = columns.map { "\($0) INTEGER" }
            + ["PRIMARY KEY (\(columns[0]), \(columns[1]))"]
        return "CREATE TABLE \(table.name.sqlIdentifier) ( \(definitions.joined(separator: ", ")) )"
    }

    /// The join table's reverse index, so members can be looked up from either side.
    public static func createJoinIndex(_ table: JoinTable) -> String {
        "CREATE INDEX \(table.reverseIndexName.sqlIdentifier) ON \(table.name.sqlIdentifier) "
            + "(\(table.secondColumn.sqlIdentifier), \(table.firstColumn.sqlIdentifier))"
    }

    /// Index elements are SQL already (`ZTITLE COLLATE BINARY ASC`), their columns quoted by `SchemaLayout`.
    public static func createIndex(_ index: IndexStorage, on table: String) -> String {
        "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name.sqlIdentifier) ON \(table.sqlIdentifier) (\(index.elements.joined(separator: ", ")))"
    }
}
