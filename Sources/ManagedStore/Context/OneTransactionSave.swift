internal import GRDB

/// A save too big to hold in memory at once (an import of 100,000 notes), written in batches
/// inside ONE SQLite transaction, so it stays all or nothing.
///
/// Why one transaction and not one save per batch: a failure or a kill after some batches
/// committed would leave part of the job in the store. Why not one save: every object of the job
/// would stay in memory until it. Here each `save()` of the body writes its batch into the open
/// transaction and turns it into committed state in memory, so objects nobody holds are freed
/// (the context holds saved objects weakly); SQLite spills the transaction's pages to its journal
/// or WAL file rather than memory. Nothing is visible to other connections until the commit; an
/// error (or a kill: SQLite discards an uncommitted transaction when the store is next opened)
/// leaves the store as it was. Reads in the body go through the same connection, so they see the
/// batches already written. The batches add to one persistent-history transaction, as one save
/// would; external-storage files of replaced values go only after the commit, and those the
/// batches wrote go on a rollback. The cost: the write lock is held from the start to the commit,
/// so other processes' saves wait for it (up to the busy timeout); readers of a WAL store do not.
final class OpenTransaction {
    /// The history transaction of the first batch that recorded changes.
    var historyTransaction: Int64?
    /// The update changes recorded so far (their keys in `ACHANGE` and the properties they
    /// name), so a later batch's update of the same object widens its change.
    var recordedUpdates: [HistoryObject: (change: Int64, keys: Set<String>)] = [:]
    /// Per root entity, the first primary key this transaction gave out: objects from it on
    /// were inserted by a batch.
    private var firstNewKeys: [String: Int64] = [:]
    /// A batch's write that failed: the transaction holds part of it and can only be rolled back.
    var failure: (any Error)?
    private var externalSaves: [ExternalDataSave] = []

    /// Notes the first key given out to a root entity's objects in this transaction.
    func willGiveOutKeys(after highest: Int64, root: String) {
        if firstNewKeys[root] == nil { firstNewKeys[root] = highest + 1 }
    }

    /// Whether an earlier batch inserted the object (its insert change stands for it).
    func insertedEarlier(_ entity: String, _ primaryKey: Int64, schema: StoreSchema) -> Bool {
        firstNewKeys[schema.storage(ofModelEntity: entity).rootName].map { primaryKey >= $0 } ?? false
    }

    /// Keeps a batch's external-storage files, to settle at the commit or rollback.
    func keep(_ save: ExternalDataSave) {
        externalSaves.append(save)
    }

    func didCommit() {
        for save in externalSaves { save.didCommit() }
    }

    func didRollBack() {
        for save in externalSaves { save.didRollBack() }
    }
}

extension ManagedObjectContext {
    /// Runs `body`, in which every `save()` writes a batch inside one SQLite transaction that is
    /// committed when `body` returns (after saving what it left unsaved), or rolled back when it
    /// throws or a batch failed: all of it, or none (`OpenTransaction` says why and how). After a
    /// rollback the context is reset, since objects of the batches are no longer in the store.
    /// Errors of `body` come out as thrown; the commit's as `ContextError.saveFailed`.
    /// The transaction is IMMEDIATE, as a save's: it takes the write lock first.
    public func saveInOneTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        guard openTransaction == nil else { throw ContextError.refused(.alreadyInOneTransaction) }
        try checkReads()
        if let refusal = store.writeRefusal { throw ContextError.storeIsReadOnly(path: store.url.path, reason: refusal) }
        do {
            try store.database.writeWithoutTransaction { db in try db.beginTransaction(.immediate) }
        } catch {
            throw ContextError.saveFailed(cause: error)
        }
        let transaction = OpenTransaction()
        openTransaction = transaction
        defer { openTransaction = nil }
        do {
            let result = try body()
            try save()
            if let failure = transaction.failure { throw ContextError.saveFailed(cause: failure) }
            do {
                try store.database.writeWithoutTransaction { db in try db.commit() }
            } catch {
                throw ContextError.saveFailed(cause: error)
            }
            transaction.didCommit()
            return result
        } catch {
            rollBack(transaction)
            throw error
        }
    }

    private func rollBack(_ transaction: OpenTransaction) {
        do {
            try store.database.writeWithoutTransaction { db in try db.rollback() }
        } catch {
            // ROLLBACK fails only on a broken connection (an I/O error); the transaction is then
            // still uncommitted, and SQLite discards it when the store is next opened, as after
            // a kill. The error being thrown says what went wrong first.
        }
        transaction.didRollBack()
        reset()
    }
}
