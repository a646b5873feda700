import Foundation
import ManagedStore

/// What the store's persistent history says changed since the last export, leaving out sync's
/// own transactions (what sync wrote came from the mirror already).
struct LocalChanges {
    /// The author of the transactions sync writes.
    static let syncAuthor = "sync"

    /// The notes inserted or changed (by key); an image's change counts as its note's.
    var changedNotes: Set<Int64> = []
    /// The identifiers of deleted notes, from their tombstones.
    var deletedNotes: Set<UUID> = []
    /// The newest transaction read (sync's own included): the next export reads after it.
    var lastToken: Int64?
    /// Sync's own transactions among those read, newest last: each names the commit it applied.
    var syncTransactions: [HistoryTransaction] = []

    var isEmpty: Bool { changedNotes.isEmpty && deletedNotes.isEmpty }

    /// Adds what a later read (after this one's `lastToken`) found.
    mutating func add(_ later: LocalChanges) {
        changedNotes.formUnion(later.changedNotes)
        deletedNotes.formUnion(later.deletedNotes)
        syncTransactions += later.syncTransactions
        lastToken = later.lastToken ?? lastToken
    }

    /// Reads the history after `token`.
    init(after token: Int64?, in context: ManagedObjectContext) throws {
        let transactions = try context.store.history(after: token)
        lastToken = transactions.last?.token ?? token
        for transaction in transactions {
            if transaction.author == Self.syncAuthor {
                syncTransactions.append(transaction)
                continue
            }
            for change in transaction.changes { try note(change, in: context) }
        }
    }

    private mutating func note(_ change: HistoryChange, in context: ManagedObjectContext) throws {
        switch (change.entityName, change.kind) {
        case (StoreNotes.noteEntity, .delete):
            if let identifier = change.tombstone["identifier"]?.uuidValue { deletedNotes.insert(identifier) }
        case (StoreNotes.noteEntity, _):
            changedNotes.insert(change.primaryKey)
        case ("Attachment", .insert), ("Attachment", .update), (StoreNotes.attachmentEntity, .insert), (StoreNotes.attachmentEntity, .update):
            // A deleted image shows as its note's update (the inverse relationship changed).
            let id = ObjectID(entityName: change.entityName, primaryKey: change.primaryKey)
            if let attachment = try context.existingObject(with: id), let note = attachment.object(forKey: "note")?.objectID.primaryKey {
                changedNotes.insert(note)
            }
        case (StoreNotes.tagEntity, .insert), (StoreNotes.tagEntity, .update):
            // A renamed tag changes the file of every note it is on, though no note changed.
            if let tag = try context.existingObject(with: ObjectID(entityName: change.entityName, primaryKey: change.primaryKey)) {
                for note in tag.objects(forKey: "notes") { if let key = note.objectID.primaryKey { changedNotes.insert(key) } }
            }
        default:
            break
        }
    }
}
