import Foundation
import ManagedStore

extension NoteBook {
    /// Notes whose title or body contains the text, ignoring case and accents, newest first and
    /// read a batch at a time: the same notes, in the same order, as
    /// `notes(matching: searchPredicate(text))`. Patterns of three characters or more are looked
    /// up in the search index beside the store; shorter ones (and any search when the index
    /// cannot be used, e.g. a read-only folder) scan the notes.
    public func notes(searching text: String) throws -> FetchedResults {
        try notes(searching: text, page: nil, offset: 0)
    }

    /// One page of `notes(searching:)`: `limit` notes from `offset`, so a first screen does not
    /// wait for every match.
    public func notes(searching text: String, limit: Int, offset: Int = 0) throws -> FetchedResults {
        try notes(searching: text, page: max(limit, 0), offset: max(offset, 0))
    }

    private func notes(searching text: String, page limit: Int?, offset: Int) throws -> FetchedResults {
        if !text.isEmpty, let index = searchIndex {
            do {
                if let keys = try index.primaryKeys(matching: text, limit: limit, offset: offset) {
                    return context.results(for: keys.map { ObjectID(entityName: "Note", primaryKey: $0) }, batchSize: Self.searchBatchSize)
                }
            } catch {
                // The index is only a faster path: without it the scan gives the same answer.
                searchIndex = nil
            }
        }
        var request = FetchRequest(entityName: "Note", predicate: text.isEmpty ? nil : Self.searchPredicate(text),
                                   sortDescriptors: Self.newestFirst, fetchBatchSize: Self.searchBatchSize)
        request.fetchLimit = limit
        request.fetchOffset = offset
        return try context.fetchBatched(request)
    }

    /// Rows read per batch from search results: a screenful or two.
    static let searchBatchSize = 100

    /// Brings the search index up to date with notes the app just saved. A store never searched
    /// gets no index here (the first search builds it). A failure leaves the index behind (the
    /// next reader notices it is stale) and this book scans from now on.
    func refreshSearchIndex(after change: PendingNoteChange) {
        guard FileManager.default.fileExists(atPath: NoteSearchIndex.url(beside: context.store).path) else { return }
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
