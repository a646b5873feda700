import Foundation
internal import GRDB

/// One save as persistent history records it (Core Data's `NSPersistentHistoryTransaction`).
public struct HistoryTransaction: Sendable, Equatable {
    /// The transaction's key (`ATRANSACTION.Z_PK`): the token to read on from.
    public var token: Int64
    /// When the save committed (`ZTIMESTAMP`).
    public var timestamp: Date
    /// The saving context's `transactionAuthor`.
    public var author: String?
    /// The saving context's `name`.
    public var contextName: String?
    /// The saving program's bundle identifier (`ZBUNDLEID`; this engine writes its process name).
    public var bundleID: String?
    /// The saving process's name (`ZPROCESSID`).
    public var processName: String?
    /// The objects the save inserted, updated or deleted.
    public var changes: [HistoryChange]
}

/// One object's change in a transaction (Core Data's `NSPersistentHistoryChange`).
public struct HistoryChange: Sendable, Equatable {
    /// `ZCHANGETYPE`, as Core Data numbers them.
    public enum Kind: Int64, Sendable {
        /// The object was made.
        case insert = 0
        /// Some of the object's properties changed (`updatedProperties`).
        case update = 1
        /// The object was deleted; `tombstone` keeps its preserved values.
        case delete = 2
    }

    /// The change's key (`ACHANGE.Z_PK`).
    public var token: Int64
    /// Whether the object was inserted, updated or deleted.
    public var kind: Kind
    /// The object's entity; `entity <Z_ENT>` for a number the model does not know.
    public var entityName: String
    /// The object's `Z_PK`; with `entityName`, which object changed.
    public var primaryKey: Int64
    /// For an update, the properties it changed.
    public var updatedProperties: [String]
    /// For a delete, the values of the attributes preserved after deletion.
    public var tombstone: [String: AttributeValue]
}

extension PersistentStore {
    /// Whether the store holds history tables (written by Core Data or by this engine).
    public func hasHistory() throws -> Bool {
        try database.read(HistoryTables.exist)
    }

    /// The transactions after `token` (all with nil), oldest first, optionally only those of one
    /// author or context name. A store without history tables has none.
    public func history(after token: Int64? = nil, author: String? = nil,
                        contextName: String? = nil) throws -> [HistoryTransaction] {
        try database.read { db in
            guard try HistoryTables.exist(in: db) else { return [] }
            return try HistoryReader(schema: schema, path: url.path)
                .transactions(after: token ?? 0, author: author, contextName: contextName, in: db)
        }
    }

    /// Deletes the transactions before `token` (not including it) and their changes, as Core
    /// Data's `deleteHistory(before:)`. - Returns: how many transactions were deleted.
    @discardableResult
    public func deleteHistory(before token: Int64) throws -> Int {
        try deleteHistory(where: "Z_PK < \(token)")
    }

    /// Deletes the transactions older than `date` and their changes.
    @discardableResult
    public func deleteHistory(before date: Date) throws -> Int {
        try deleteHistory(where: "ZTIMESTAMP < \(date.timeIntervalSinceReferenceDate)")
    }

    private func deleteHistory(where condition: SQL) throws -> Int {
        if let refusal = writeRefusal { throw ContextError.storeIsReadOnly(path: url.path, reason: refusal) }
        return try database.write { db in
            guard try HistoryTables.exist(in: db) else { return 0 }
            try db.execute(literal: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(condition))")
            try db.execute(literal: "DELETE FROM ATRANSACTION WHERE \(condition)")
            return db.changesCount
        }
    }
}
