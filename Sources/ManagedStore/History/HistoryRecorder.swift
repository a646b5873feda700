import Foundation
internal import GRDB

/// Records one save as one history transaction, in the save's own SQLite transaction, so a save
/// is never without its history nor history without its save (a kill rolls both back). The
/// batches of one `saveInOneTransaction` add to one history transaction.
///
/// Made at the start of the save's transaction, before any row is written: a deleted object's
/// tombstone values are read from its row while the row is still there.
struct HistoryRecorder {
    private struct Deletion {
        var entity: String
        var primaryKey: Int64
        var tombstone: [DatabaseValue]
    }

    private let context: ManagedObjectContext
    private let deletions: [Deletion]

    /// Nil when the store does not record history. A store opened without tracking is checked
    /// again here, under the save's write lock: another process may have made history tables
    /// since it was opened, and a save missing from them would split the history.
    init?(context: ManagedObjectContext, deleted: [ManagedObject], in db: Database) throws {
        guard context.store.recordsHistory else {
            if !context.store.options.leavesHistoryAsIs, try HistoryTables.exist(in: db) {
                throw ContextError.storeIsReadOnly(path: context.store.url.path, reason: .historyTrackingOff)
            }
            return nil
        }
        self.context = context
        deletions = try deleted.compactMap { object in
            guard let primaryKey = object.objectID.primaryKey,
                  let storage = context.schema.entity(named: object.entity.name) else { return nil }
            let tombstone = try Tombstones(entity: object.entity.name, model: context.model)
                .values(of: storage, primaryKey: primaryKey, in: db)
            return Deletion(entity: object.entity.name, primaryKey: primaryKey, tombstone: tombstone)
        }
    }

    /// Writes the transaction and one change per inserted, updated (with changed properties) and
    /// deleted object. `changedKeys` are the updated objects' changes, taken before the save.
    /// - Parameter open: the transaction of `saveInOneTransaction` this save is a batch of: its
    ///   changes join the first batch's history transaction, and the whole is recorded as one save
    ///   would record it, one change per object (an object an earlier batch inserted keeps its
    ///   insert; one it updated has that change's properties widened).
    func record(inserted: [(entity: String, primaryKey: Int64)], updated: [(entity: String, primaryKey: Int64, changedKeys: Set<String>)],
                within open: OpenTransaction?, in db: Database) throws {
        var updated = updated.filter { open?.insertedEarlier($0.entity, $0.primaryKey, schema: context.schema) != true }
        if let open {
            let again = updated.filter { open.recordedUpdates[HistoryObject($0.entity, $0.primaryKey)] != nil }
            updated.removeAll { open.recordedUpdates[HistoryObject($0.entity, $0.primaryKey)] != nil }
            for object in again { try widen(object, in: open, db: db) }
        }
        let changeCount = inserted.count + updated.count + deletions.count
        guard changeCount > 0 else { return }
        let transaction = try open?.historyTransaction ?? newTransaction(in: db)
        open?.historyTransaction = transaction
        var key = try HistoryTables.reserveKeys(changeCount, of: HistoryTables.change, in: db)
        // Inserts and updates (no tombstone) share one statement, prepared once: building the SQL
        // text per change took a fifth of an import's time.
        let withoutTombstone = try db.cachedStatement(sql: """
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
            VALUES (?, ?, 1, ?, ?, ?, ?, ?)
            """)
        func change(_ type: HistoryChange.Kind, _ entity: String, _ primaryKey: Int64, columns: Data? = nil,
                    tombstone: [DatabaseValue] = []) throws {
            guard let number = context.schema.entity(named: entity)?.number else { return }
            if tombstone.isEmpty {
                try withoutTombstone.execute(arguments: [key, HistoryTables.change.number, type.rawValue, number, primaryKey, transaction,
                                                         columns?.databaseValue ?? .null])
                key += 1
                return
            }
            try Tombstones.ensureColumns(tombstone.count, in: db)
            let names = ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
                + tombstone.indices.map(Tombstones.column)
            let values: [DatabaseValue] = [key.databaseValue, HistoryTables.change.number.databaseValue, 1.databaseValue,
                                           type.rawValue.databaseValue, number.databaseValue, primaryKey.databaseValue,
                                           transaction.databaseValue, columns?.databaseValue ?? .null] + tombstone
            let columns = names.map { name -> SQL in "\(identifier: name)" }.joined(separator: ", ")
            try db.cachedStatement(literal: "INSERT INTO ACHANGE (\(columns)) VALUES \(values)").execute()
            key += 1
        }
        for object in inserted { try change(.insert, object.entity, object.primaryKey) }
        for object in updated {
            let columns = ChangedProperties(entity: object.entity, model: context.model).encode(object.changedKeys)
            open?.recordedUpdates[HistoryObject(object.entity, object.primaryKey)] = (key, object.changedKeys)
            try change(.update, object.entity, object.primaryKey, columns: columns)
        }
        for deletion in deletions {
            try change(.delete, deletion.entity, deletion.primaryKey, tombstone: deletion.tombstone)
        }
    }

    /// An object an earlier batch of the open transaction recorded as updated: its change now
    /// names the properties of both.
    private func widen(_ object: (entity: String, primaryKey: Int64, changedKeys: Set<String>), in open: OpenTransaction,
                       db: Database) throws {
        let id = HistoryObject(object.entity, object.primaryKey)
        guard let (change, keys) = open.recordedUpdates[id] else { return }
        let widened = keys.union(object.changedKeys)
        guard widened != keys else { return }
        open.recordedUpdates[id] = (change, widened)
        let columns = ChangedProperties(entity: object.entity, model: context.model).encode(widened)
        try db.execute(sql: "UPDATE ACHANGE SET ZCOLUMNS = ? WHERE Z_PK = ?", arguments: [columns, change])
    }

    /// Writes a history transaction row, with the context's author and name, and returns its key.
    private func newTransaction(in db: Database) throws -> Int64 {
        let transaction = try HistoryTables.reserveKeys(1, of: HistoryTables.transaction, in: db)
        let strings = try keys(of: [context.transactionAuthor, HistoryProcess.bundleID, context.name, HistoryProcess.processName], in: db)
        try db.cachedStatement(sql: """
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
            VALUES (?, ?, 1, ?, ?, ?, ?, ?)
            """).execute(arguments: [transaction, HistoryTables.transaction.number, strings[0], strings[1], strings[2], strings[3],
                                     Date().timeIntervalSinceReferenceDate])
        return transaction
    }

    /// The keys of transaction strings (author, bundle, context, process name), interned in
    /// `ATRANSACTIONSTRING` as Core Data does: the known ones read in one statement, new ones
    /// added; nil for no name.
    private func keys(of names: [String?], in db: Database) throws -> [Int64?] {
        let wanted = Array(Set(names.compactMap { $0 }))
        var known: [String: Int64] = [:]
        if !wanted.isEmpty {
            for row in try Row.fetchAll(db.cachedStatement(literal: "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING WHERE ZNAME IN \(wanted)")) {
                if let name = row["ZNAME"] as String?, let key = row["Z_PK"] as Int64? { known[name] = key }
            }
        }
        for name in wanted where known[name] == nil {
            let key = try HistoryTables.reserveKeys(1, of: HistoryTables.string, in: db)
            try db.execute(sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)",
                           arguments: [key, HistoryTables.string.number, name])
            known[name] = key
        }
        return names.map { $0.flatMap { known[$0] } }
    }
}

/// The bundle and process names a transaction records. Linux programs have no bundle
/// identifier: the bundle's, where it has one, else the program's name.
enum HistoryProcess {
    static let processName = ProcessInfo.processInfo.processName
    static let bundleID = Bundle.main.bundleIdentifier ?? processName
}

/// An object as history names it, to find its change again within one transaction.
struct HistoryObject: Hashable {
    var entity: String
    var primaryKey: Int64

    init(_ entity: String, _ primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }
}
