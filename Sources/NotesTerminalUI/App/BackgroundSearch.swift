import Foundation
import UnCloudNotesKit

/// Searches the notes off the key loop, so typing never waits for a search.
///
/// The app's context is not thread-safe, so each background job reads through its own read-only
/// connection to the same store and hands back only note IDs; the key loop reads the notes
/// through its own book. A newer search supersedes the older: a superseded job does not start,
/// and whatever it found is dropped. Queries of three folded characters or more use the search
/// index once it is built; it is built on its own queue (about half a minute at 100,000 notes),
/// and the scan answers until then.
final class BackgroundSearch: @unchecked Sendable {
    /// What a job found for the search numbered `generation`: the first screenful is sent ahead
    /// (`isComplete` false), then every match.
    struct Delivery: Sendable {
        let generation: Int
        let noteIDs: [NoteID]
        let isComplete: Bool
        let failure: String?
    }

    /// Matches sent ahead of the full answer: a screenful or two.
    static let firstPageSize = 100

    private let store: NoteStoreAddress
    private let searchExecutor: any BackgroundExecutor
    private let indexExecutor: any BackgroundExecutor
    /// Guards `latestGeneration`, `deliveries`, `indexState`.
    private let lock = NSLock()
    private var latestGeneration = 0
    private var deliveries: [Delivery] = []
    private var indexState = IndexState.notStarted
    /// Used only by jobs on `searchExecutor`, which runs one at a time.
    private var searchBook: NoteBook?

    private enum IndexState { case notStarted, building, ready, failed }

    init(store: NoteStoreAddress, searchExecutor: any BackgroundExecutor, indexExecutor: any BackgroundExecutor) {
        self.store = store
        self.searchExecutor = searchExecutor
        self.indexExecutor = indexExecutor
    }

    /// Starts searching for `text`, superseding any earlier search.
    func start(_ text: String) {
        let generation = lock.withLock { () -> Int in
            latestGeneration += 1
            return latestGeneration
        }
        if NoteSearchIndex.canAnswer(text) {
            buildIndexOnce()
        }
        searchExecutor.run { [self] in search(text, generation: generation) }
    }

    /// Whether the search index is built: until then searches scan, so none waits for it.
    var isIndexReady: Bool { lock.withLock { indexState == .ready } }

    /// Drops every search under way (the key loop answered the question itself).
    func cancelAll() {
        lock.withLock { latestGeneration += 1 }
    }

    /// Takes what finished searches found, those of the latest search only, oldest first.
    func takeDeliveries() -> [Delivery] {
        lock.withLock {
            let current = deliveries.filter { $0.generation == latestGeneration }
            deliveries = []
            return current
        }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        lock.withLock { generation == latestGeneration }
    }

    private func deliver(_ delivery: Delivery) {
        lock.withLock {
            guard delivery.generation == latestGeneration else { return }
            deliveries.append(delivery)
        }
    }

    private func search(_ text: String, generation: Int) {
        guard isCurrent(generation) else { return }
        do {
            let book = try ownBook()
            let useIndex = isIndexReady
            let firstPage = try book.noteIDs(matching: text, page: ListPage(limit: Self.firstPageSize), usingIndex: useIndex)
            if firstPage.count < Self.firstPageSize {
                deliver(Delivery(generation: generation, noteIDs: firstPage, isComplete: true, failure: nil))
                return
            }
            deliver(Delivery(generation: generation, noteIDs: firstPage, isComplete: false, failure: nil))
            guard isCurrent(generation) else { return }
            let all = try book.noteIDs(matching: text, usingIndex: useIndex)
            deliver(Delivery(generation: generation, noteIDs: all, isComplete: true, failure: nil))
        } catch {
            deliver(Delivery(generation: generation, noteIDs: [], isComplete: true, failure: "cannot search: \(error)"))
        }
    }

    private func ownBook() throws -> NoteBook {
        if let searchBook { return searchBook }
        let book = try store.openReadOnly()
        searchBook = book
        return book
    }

    /// Builds (or brings up to date) the index beside the store on its own queue and connection,
    /// once; when that fails, searches go on scanning.
    private func buildIndexOnce() {
        let shouldStart = lock.withLock { () -> Bool in
            guard indexState == .notStarted else { return false }
            indexState = .building
            return true
        }
        guard shouldStart else { return }
        indexExecutor.run { [self] in
            let state: IndexState
            do {
                try store.openReadOnly().prepareSearchIndex()
                state = .ready
            } catch {
                state = .failed
            }
            lock.withLock { indexState = state }
        }
    }
}
