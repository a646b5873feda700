import GRDB
import ManagedStore

/// Every row of every table of a store as text: for tests that a store did not change.
public enum StoreDump {
    public static func contents(of store: PersistentStore) throws -> [String] {
        try store.database.read { db in
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            return try tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1").map { "\(table): \($0)" }
            }
        }
    }
}
