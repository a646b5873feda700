import Foundation
import ManagedStore

extension NoteBook {
    /// Notes whose title or body contains the text, ignoring case and accents, newest first and
    /// read a batch at a time: the same notes, in the same order, as
    /// `notes(matching: searchPredicate(text))`. Patterns of three characters or more are looked
    /// up in the search index beside the store; shorter ones (and any search when the index
    /// cannot be used, e.g. a read-only folder) scan the notes.
    public func notes(searching text: String) throws -> FetchedResults {
        guard !text.isEmpty else { return try notes() }
        if let index = searchIndex {
            do {
                if let keys = try index.primaryKeys(matching: text) {
                    return context.results(for: keys.map { ObjectID(entityName: "Note", primaryKey: $0) }, batchSize: Self.searchBatchSize)
                }
            } catch {
                // The index is only a faster path: without it the scan gives the same answer.
                searchIndex = nil
            }
        }
        return try notes(matching: Self.searchPredicate(text))
    }

    /// Rows read per batch from search results: a screenful or two.
    static let searchBatchSize = 100

    /// Brings the search index up to date with notes the app just saved. A failure leaves the
    /// index behind (the next reader notices it is stale) and this book scans from now on.
    func refreshSearchIndex(after change: PendingNoteChange) {
        do {
            try searchIndex?.refresh(notes: change.savedKeys)
        } catch {
            searchIndex = nil
        }
    }
}

/// The notes a save is about to write, remembered before it so their keys are known after it
/// (an inserted note gets its key when saved).
struct PendingNoteChange {
    private let written: [ManagedObject]
    private let deletedKeys: [Int64]

    init(in context: ManagedObjectContext) {
        let isNote = { (object: ManagedObject) in object.objectID.entityName == "Note" }
        written = (context.insertedObjectsList + context.updatedObjectsList).filter(isNote)
        deletedKeys = context.deletedObjectsList.filter(isNote).compactMap(\.objectID.primaryKey)
    }

    var savedKeys: [Int64] { written.compactMap(\.objectID.primaryKey) + deletedKeys }
}
