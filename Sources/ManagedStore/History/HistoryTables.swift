internal import GRDB

/// Core Data's persistent history tables, in the layout Apple's stores have (read off a store
/// written by Core Data; docs/store-format.md): `ATRANSACTION`, `ACHANGE` and `ATRANSACTIONSTRING`,
/// numbered as entities 16002, 16001 and 16003 in `Z_PRIMARYKEY`, whose `Z_MAX` gives their keys.
enum HistoryTables {
    /// A history entity: its number and name in `Z_PRIMARYKEY`, and its table.
    struct Entity {
        let number: Int
        let name: String
        var table: String { "A" + name }
    }

    static let change = Entity(number: 16001, name: "CHANGE")
    static let transaction = Entity(number: 16002, name: "TRANSACTION")
    static let string = Entity(number: 16003, name: "TRANSACTIONSTRING")

    /// Whether the store holds history tables (Apple's or the engine's).
    /// Read from `sqlite_master` itself, not GRDB's schema cache, which does not see tables
    /// another process made since this connection last looked.
    static func exist(in db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('ATRANSACTION', 'ACHANGE', 'ATRANSACTIONSTRING')
            """) == 3
    }

    /// Creates the tables, their indexes and their `Z_PRIMARYKEY` rows, as Core Data does the first
    /// time a store is opened with history tracking on.
    static func create(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, \
            ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, \
            ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, \
            ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
            CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
            CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS);
            CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS);
            CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS);
            CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS);
            CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC);
            CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC);
            CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
            """)
        for entity in [change, transaction, string] {
            try db.execute(sql: "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                           arguments: [entity.number, entity.name])
        }
    }

    /// Reserves `count` keys of a history table and returns the first: its `Z_PRIMARYKEY` row's
    /// `Z_MAX` advances (past any key already in the table, should a hand-edited row lag behind),
    /// in one cached statement, as it runs at every save.
    static func reserveKeys(_ count: Int, of entity: Entity, in db: Database) throws -> Int64 {
        let table = entity.table
        let statement = try db.cachedStatement(literal: """
            UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, (SELECT IFNULL(MAX(Z_PK), 0) FROM \(identifier: table))) + \(count)
            WHERE Z_ENT = \(entity.number) RETURNING Z_MAX
            """)
        if let last = try Int64.fetchOne(statement) { return last - Int64(count) + 1 }
        // A store whose row is missing (hand-edited): made again past the table's keys.
        let used = try Int64.fetchOne(db, SQLRequest(literal: "SELECT IFNULL(MAX(Z_PK), 0) FROM \(identifier: table)")) ?? 0
        try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, ?)",
                       arguments: [entity.number, entity.name, used + Int64(count)])
        return used + 1
    }
}
