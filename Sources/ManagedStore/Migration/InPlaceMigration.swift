import Foundation
internal import GRDB

/// Runs an inferred (lightweight) migration inside the store file, in one SQLite transaction:
/// on any error nothing changes, and an interrupted run is rolled back by SQLite itself.
public enum InPlaceMigration {
    /// Whether the inferred mapping can be done in place, and if not, why.
    public static func check(_ inferred: InferredMapping, from source: ManagedObjectModel,
                             to destination: ManagedObjectModel) throws -> (possible: Bool, reason: String?) {
        let planner = InPlaceMigrationPlanner(inferred: inferred, source: try StoreSchema(model: source),
                                              destination: try StoreSchema(model: destination))
        switch planner.plan(sourceMaxima: [:], metadataPlist: []) {
        case .script: return (true, nil)
        case .declined(let reason): return (false, reason)
        }
    }

    /// Migrates the store at `url` from `source` to `destination` in place.
    /// - Returns: false, touching nothing, when the change cannot be done in place.
    @discardableResult
    public static func migrate(storeAt url: URL, from source: ManagedObjectModel, to destination: ManagedObjectModel,
                               inferred: InferredMapping, options: StoreOptions = StoreOptions()) throws -> Bool {
        try migrateCountingRows(storeAt: url, knownMetadata: nil, from: source, to: destination, inferred: inferred, options: options) != nil
    }

    /// The same, telling how many rows its statements changed; nil when it cannot be done in place.
    /// `knownMetadata`: the store's, as a migrator's check read them, used while it is as it was then.
    static func migrateCountingRows(storeAt url: URL, knownMetadata: StoreMetadataReading?, from source: ManagedObjectModel,
                                    to destination: ManagedObjectModel, inferred: InferredMapping, options: StoreOptions) throws -> Int? {
        var options = options
        options.leavesHistoryAsIs = true
        let store = try PersistentStore.open(at: url, model: source, options: options, knownMetadata: knownMetadata)
        // The migration commits (or rolls back) in one transaction before this runs: a close that
        // fails changes nothing in the file, and the connection goes with the store object anyway.
        defer { try? store.close() }
        let destinationSchema = try StoreSchema(model: destination)
        let maxima = try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").reduce(into: [String: Int64]()) {
                let reader = RowReader(row: $1, table: "Z_PRIMARYKEY", path: url.path)
                let name = try reader.value("Z_NAME")
                guard let entityName = String.fromDatabaseValue(name) else {
                    throw StoreError(path: url.path, mismatch: .unreadableValue(table: "Z_PRIMARYKEY", column: "Z_NAME",
                                                                                primaryKey: nil, found: "\(name)"))
                }
                $0[entityName] = try reader.integer("Z_MAX") ?? 0
            }
        }
        let metadata = StoreMetadata(model: destination, storeUUID: store.metadata.storeUUID)
        let planner = InPlaceMigrationPlanner(inferred: inferred, source: store.schema, destination: destinationSchema)
        guard case .script(let script) = planner.plan(sourceMaxima: maxima, metadataPlist: [UInt8](try metadata.plistData())) else {
            return nil
        }
        do {
            return try store.database.write { db in
                let before = db.totalChangesCount
                for statement in script.statements { try db.execute(literal: statement) }
                let changed = db.totalChangesCount - before
                try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1", arguments: [Data(script.metadataPlist)])
                if try db.tableExists("Z_MODELCACHE") { try db.execute(sql: "DELETE FROM Z_MODELCACHE") }
                try HistoryTranslation(source: store.schema, destination: destinationSchema, inferred: inferred).run(in: db)
                try verify(destinationSchema, in: db, path: url.path)
                return changed
            }
        } catch let error as DatabaseError {
            // SQLite refused a statement (rows breaking a new uniqueness constraint, a full disk):
            // the transaction rolled back. The cause is kept as data, without GRDB's type.
            throw MigrationError.failed(from: source.name, to: destination.name, cause: FailureCause(error))
        }
    }

    /// The tables must now have exactly the columns a new store of the destination would have;
    /// otherwise the transaction is rolled back.
    private static func verify(_ schema: StoreSchema, in db: Database, path: String) throws {
        for table in schema.tables {
            let expected = Set(["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name))
            let actual = Set(try db.columns(in: table.name).map(\.name))
            guard expected == actual else {
                throw StoreError(path: path, .inPlaceColumns(table: table.name, found: actual.sorted(), expected: expected.sorted()))
            }
        }
        for table in schema.joinTables {
            guard try db.tableExists(table.name) else {
                throw StoreError(path: path, .inPlaceJoinTableMissing(table.name))
            }
        }
    }
}
