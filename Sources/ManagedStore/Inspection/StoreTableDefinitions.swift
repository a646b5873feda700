import Foundation
internal import GRDB

/// The SQL that defines a store's tables, as SQLite keeps it in `sqlite_master`: what a reader
/// of Core Data's layout wants to see (the walkthrough prints it after each version).
public enum StoreTableDefinitions {
    /// The `CREATE TABLE` statements of the store at `url`, by table name, read through a
    /// read-only connection that leaves the store's files as they were.
    public static func statements(ofStoreAt url: URL) throws -> [String] {
        let queue = try StoreFiles(url: url).readOnlyQueue()
        // Closing a read-only connection after reading has nothing left to lose.
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL ORDER BY name")
        }
    }
}
