internal import GRDB

/// The secondary indexes of a migration's new file, dropped while its rows are bulk-inserted and
/// built once afterwards: sorting every key once costs less than inserting each into a B-tree
/// (random keys, as new identifiers, most of all), and the file is scratch until the migration
/// completes (a failure removes it). Unique indexes are deferred too: building one refuses a
/// duplicate as inserting it would have (`SQLITE_CONSTRAINT`), and the migration fails the same way.
struct DeferredIndexes {
    private let definitions: [String]

    /// Drops the store's indexes (those it declares: not the automatic ones of primary keys)
    /// and remembers how to make them again.
    static func drop(in store: PersistentStore) throws -> DeferredIndexes {
        try store.database.write { db in
            let indexes = try Row.fetchAll(db, sql: """
                SELECT name, sql FROM main.sqlite_master
                WHERE type = 'index' AND sql IS NOT NULL
                """)
            for index in indexes {
                let name: String = index["name"]
                try db.execute(literal: "DROP INDEX main.\(identifier: name)")
            }
            return DeferredIndexes(definitions: indexes.map { $0["sql"] })
        }
    }

    /// Builds the indexes again, from the rows now in the store.
    func rebuild(in store: PersistentStore) throws {
        guard !definitions.isEmpty else { return }
        try store.database.write { db in
            for definition in definitions { try db.execute(sql: definition) }
        }
    }
}
