package import GRDB

extension PersistentStore {
    /// A number that changes whenever another connection (another process, a second app) commits
    /// to the store, and stays as it is for this connection's own saves (SQLite's
    /// `PRAGMA data_version`). A long-running reader compares it with the value it saw last to
    /// learn cheaply, without reading any table, that what it read may be stale.
    public func externalChangeToken() throws -> Int {
        try database.read(Self.externalChangeToken)
    }

    /// The token as seen inside a read already in progress on the store's connection.
    package static func externalChangeToken(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}
