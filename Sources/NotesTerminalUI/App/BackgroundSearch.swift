import Synchronization
import UnCloudNotesKit

/// Searches the notes off the key loop, so typing never waits for a search.
///
/// The app's context is not thread-safe, so each background job reads through its own read-only
/// connection to the same store and hands back only note IDs; the key loop reads the notes
/// through its own book. A newer search supersedes the older: a superseded job does not start,
/// and whatever it found is dropped. Queries use the search index once it is built; the first
/// query builds it on its own queue (about 5 s at 100,000 notes), and the scan answers
/// until then.
final class BackgroundSearch: Sendable {
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

    private enum IndexState { case notStarted, building, ready, failed }

    /// What the key loop and the jobs share.
    private struct Shared {
        var latestGeneration = 0
        var deliveries: [Delivery] = []
        var indexState = IndexState.notStarted
    }

    private let store: NoteStoreAddress
    private let searchExecutor: any BackgroundExecutor
    private let indexExecutor: any BackgroundExecutor
    private let shared = Mutex(Shared())
    /// The search jobs' own read-only book, opened by the first job. Only jobs on
    /// `searchExecutor` use it, one at a time, so its lock is never waited for.
    private let searchBook = Mutex<NoteBook?>(nil)

    init(store: NoteStoreAddress, searchExecutor: any BackgroundExecutor, indexExecutor: any BackgroundExecutor) {
        self.store = store
        self.searchExecutor = searchExecutor
        self.indexExecutor = indexExecutor
    }

    /// Starts searching (the query's text, within its tag and in its order), superseding any
    /// earlier search. `sendingFirstPage`: a screenful is sent ahead of the full answer.
    func start(_ query: NoteQuery, sendingFirstPage: Bool = true) {
        let generation = shared.withLock { shared in
            shared.latestGeneration += 1
            return shared.latestGeneration
        }
        // Only a text search reads the index: the rest of a list read again needs none built.
        if !(query.search ?? "").isEmpty { buildIndexOnce() }
        searchExecutor.run { [self] in search(query, generation: generation, sendingFirstPage: sendingFirstPage) }
    }

    /// Whether the search index is built: until then searches scan, so none waits for it.
    var isIndexReady: Bool { shared.withLock { $0.indexState == .ready } }

    /// Drops every search under way (the key loop answered the question itself).
    func cancelAll() {
        shared.withLock { $0.latestGeneration += 1 }
    }

    /// Takes what finished searches found, those of the latest search only, oldest first.
    func takeDeliveries() -> [Delivery] {
        shared.withLock { shared in
            let current = shared.deliveries.filter { $0.generation == shared.latestGeneration }
            shared.deliveries = []
            return current
        }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        shared.withLock { generation == $0.latestGeneration }
    }

    private func deliver(_ delivery: Delivery) {
        shared.withLock { shared in
            guard delivery.generation == shared.latestGeneration else { return }
            shared.deliveries.append(delivery)
        }
    }

    private func search(_ query: NoteQuery, generation: Int, sendingFirstPage: Bool) {
        guard isCurrent(generation) else { return }
        let useIndex = isIndexReady
        searchBook.withLock { searchBook in
            do {
                let book = try searchBook ?? store.openReadOnly()
                searchBook = book
                guard sendingFirstPage else {
                    deliver(Delivery(generation: generation, noteIDs: try book.noteIDs(query, usingIndex: useIndex), isComplete: true, failure: nil))
                    return
                }
                let firstPage = try book.noteIDs(query, page: ListPage(limit: Self.firstPageSize), usingIndex: useIndex)
                if firstPage.count < Self.firstPageSize {
                    deliver(Delivery(generation: generation, noteIDs: firstPage, isComplete: true, failure: nil))
                    return
                }
                deliver(Delivery(generation: generation, noteIDs: firstPage, isComplete: false, failure: nil))
                guard isCurrent(generation) else { return }
                let all = try book.noteIDs(query, usingIndex: useIndex)
                deliver(Delivery(generation: generation, noteIDs: all, isComplete: true, failure: nil))
            } catch {
                deliver(Delivery(generation: generation, noteIDs: [], isComplete: true, failure: "cannot search: \(error)"))
            }
        }
    }

    /// Builds (or brings up to date) the index beside the store on its own queue and connection,
    /// once; when that fails, searches go on scanning.
    private func buildIndexOnce() {
        let shouldStart = shared.withLock { shared in
            guard shared.indexState == .notStarted else { return false }
            shared.indexState = .building
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
            shared.withLock { $0.indexState = state }
        }
    }
}
