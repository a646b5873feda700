import Foundation
import ManagedStore

/// The one definition of "search" for the screens and the command line: notes whose title or
/// body contains the text, or (v5) that have a tag whose name contains it, ignoring case and
/// accents (`CONTAINS[cd]`), in the list's order. Searches go through the index beside the store
/// (trigrams for patterns of three folded characters or more, its folded text for shorter ones);
/// when the index cannot be used (a read-only folder) they scan the notes with the same folding,
/// so both paths give the same notes in the same order.
extension NoteBook {
    /// The notes matching `search` (all when nil or empty), newest first (pinned first at v5), one page.
    /// - Parameter usingIndex: false scans even for long patterns: the screens search this way
    ///   while the index is being built on another thread, so no keystroke waits for it.
    public func noteIDs(matching search: String? = nil, page: ListPage = ListPage(), usingIndex: Bool = true) throws(NoteBookError) -> [NoteID] {
        try noteIDs(NoteQuery(search: search), page: page, usingIndex: usingIndex)
    }

    /// The notes of the query, in its order, one page. Without a search, one statement reads
    /// the page from the fetch index of the order.
    public func noteIDs(_ query: NoteQuery, page: ListPage = ListPage(), usingIndex: Bool = true) throws(NoteBookError) -> [NoteID] {
        do {
            guard let plan = try ListPlan(query, in: self, usingIndex: usingIndex) else { return [] }
            return try plan.ids(page: page)
        } catch {
            throw .wrapping(error)
        }
    }

    /// Calls `body` for each list row matching `search`, newest first, as the rows are read
    /// (`notes list` prints a million notes without holding them).
    public func forEachRow(matching search: String? = nil, page: ListPage = ListPage(), _ body: (NoteRow) throws -> Void) throws {
        try forEachRow(NoteQuery(search: search), page: page, body)
    }

    /// Calls `body` for each row of the query, in its order, as the rows are read.
    public func forEachRow(_ query: NoteQuery, page: ListPage = ListPage(), _ body: (NoteRow) throws -> Void) throws {
        let plan: ListPlan?
        do {
            plan = try ListPlan(query, in: self, usingIndex: true)
        } catch {
            throw NoteBookError.wrapping(error)
        }
        guard let plan else { return }
        if case .scan(let conditions) = plan.strategy {
            // The caller's errors pass through as they are; the store's become `NoteBookError`s.
            struct CallerError: Error { let underlying: any Error }
            do {
                try forEachScannedRow(.scan(conditions, page: page)) { row in
                    do { try body(row) } catch { throw CallerError(underlying: error) }
                }
            } catch let error as CallerError {
                throw error.underlying
            } catch {
                throw NoteBookError.wrapping(error)
            }
            return
        }
        let keys: [NoteID]
        do {
            keys = try plan.ids(page: page)
        } catch {
            throw NoteBookError.wrapping(error)
        }
        for chunk in stride(from: 0, to: keys.count, by: Self.rowsPerQuery) {
            for row in try rows(of: Array(keys[chunk..<min(chunk + Self.rowsPerQuery, keys.count)])) { try body(row) }
        }
    }

    /// The list rows of these notes, in the given order; notes that are gone are left out.
    public func rows(of ids: [NoteID]) throws(NoteBookError) -> [NoteRow] {
        var found: [NoteID: NoteRow] = [:]
        do {
            for chunk in stride(from: 0, to: ids.count, by: Self.rowsPerQuery) {
                let keys = ids[chunk..<min(chunk + Self.rowsPerQuery, ids.count)].map(\.number)
                try forEachScannedRow(.keys(keys)) { found[$0.id] = $0 }
            }
        } catch {
            throw .wrapping(error)
        }
        return ids.compactMap { found[$0] }
    }

    /// Builds the search index beside the store, or brings it up to date (slow the first time:
    /// about 5 s at 100,000 notes in a release build), so later searches are fast.
    public func prepareSearchIndex() throws(NoteBookError) {
        do {
            try NoteSearchIndex.open(beside: context).refreshIfStale()
        } catch {
            throw .wrapping(error)
        }
    }

    /// Keys read per query when rows are read by key.
    static let rowsPerQuery = 500

    /// The index's answer; nil when there is nothing to search for or the index cannot be used.
    func indexedKeys(_ search: String?, page: ListPage) -> [Int64]? {
        guard let search, !search.isEmpty, let index = searchIndex else { return nil }
        do {
            return try index.primaryKeys(matching: search, limit: page.limit.map { max($0, 0) }, offset: max(page.offset, 0))
        } catch {
            // The index is only a faster path: the scan gives the same answer.
            searchIndex = nil
            return nil
        }
    }

    /// Brings the search index up to date with notes the app just saved. A store never searched
    /// gets no index here (the first search builds it). A failure leaves the index behind (the
    /// next reader notices it is stale) and this book scans from now on.
    func refreshSearchIndex(after change: PendingNoteChange) {
        refreshSearchIndex(saved: change.savedKeys, partly: change.keysWithSomeTextChanged)
    }

    /// `refreshSearchIndex(after:)` for the notes of several saves (an import's batches).
    func refreshSearchIndex(saved: [Int64], partly: [Int64: Set<String>]) {
        guard FileManager.default.fileExists(atPath: NoteSearchIndex.url(beside: context.store).path) else { return }
        do {
            try searchIndex?.refresh(objects: saved, partly: partly)
        } catch {
            searchIndex = nil
        }
    }
}

/// The notes a save is about to write, remembered before it so their keys are known after it
/// (an inserted note gets its key when saved): those whose order it may change (or that it
/// inserts or deletes), folded again whole, and the others with the indexed attributes it changed:
/// only those are folded again (a title's edit does not fold a 10 MB body; a pin, a tag or a
/// modified date folds nothing, the index only records the save).
struct PendingNoteChange {
    private let written: [ManagedObject]
    private let writtenPartly: [(note: ManagedObject, attributes: Set<String>)]
    private let deletedKeys: [Int64]

    init(in context: ManagedObjectContext) {
        let isNote = { (object: ManagedObject) in object.objectID.entityName == NoteBook.noteEntity }
        let configuration = NoteSearchIndex.configuration
        let texts = Set(configuration.attributes)
        var moved: [ManagedObject] = [], partly: [(note: ManagedObject, attributes: Set<String>)] = []
        for note in context.updatedObjectsList where isNote(note) {
            if note.changedKeys.contains(configuration.orderAttribute) {
                moved.append(note)
            } else {
                partly.append((note, note.changedKeys.intersection(texts)))
            }
        }
        written = context.insertedObjectsList.filter(isNote) + moved
        writtenPartly = partly
        deletedKeys = context.deletedObjectsList.filter(isNote).compactMap(\.objectID.primaryKey)
    }

    /// Notes whose entries are folded again (or removed).
    var savedKeys: [Int64] { written.compactMap(\.objectID.primaryKey) + deletedKeys }
    /// Notes whose entries fold again only the attributes named (none: only the save is recorded).
    var keysWithSomeTextChanged: [Int64: Set<String>] {
        writtenPartly.reduce(into: [:]) { keys, change in
            if let key = change.note.objectID.primaryKey { keys[key] = change.attributes }
        }
    }
}
