import Foundation
import ManagedStore
import UnCloudNotesKit

/// v5's list pages (issue 23): the first screen of `notes list --tag X` and of the pinned-first
/// list, each answered from an index (the tag's join-table index, the order's fetch index), never
/// a sort of every note. Measured in process on a copy of the read store in which every 100th
/// note has the tag and every 10,000th from the middle on is pinned, so the pinned notes are old
/// ones the index must bring to the top (one save each, not timed).
enum TagAndPinPaths {
    struct Result: Codable {
        var notes: Int
        var taggedNotes: Int
        var pinnedNotes: Int
        /// The first screen of the tag's notes: their IDs, then their rows.
        var tagFirstScreen: Stats
        /// The first screen of the whole list, pinned notes first.
        var pinnedFirstScreen: Stats
    }

    static let tag = "bench"
    static let taggedEvery = 100
    static let pinnedEvery = 10_000

    static func measure(storeAt readStore: URL, notes: Int, runs: Int, scratch: URL) throws -> Result {
        let url = scratch.appendingPathComponent("tagged.sqlite")
        try DiskSync.syncedCopy(of: readStore, at: url)
        // The copy is scratch: removing it is best effort.
        defer { StoreFiles(url: url).remove() }
        let (tagged, pinned) = try prepare(url)
        var log = RunLog()
        let rows = ReadPaths.screen.height
        for _ in 0..<runs {
            // A new book each run, as `notes list` opens the store.
            let book = try UnCloudNotesStack(storeURL: url).open()
            var start = DispatchTime.now()
            let byTag = try book.rows(of: book.noteIDs(NoteQuery(tag: tag), page: ListPage(limit: rows)))
            log.add(seconds(since: start), to: "tag")
            start = DispatchTime.now()
            let first = try book.rows(of: book.noteIDs(NoteQuery(), page: ListPage(limit: rows)))
            log.add(seconds(since: start), to: "pinned")
            guard byTag.count == min(rows, tagged), byTag.allSatisfy({ $0.tags.contains(tag) }),
                  first.prefix(min(rows, pinned)).allSatisfy(\.pinned) else {
                throw BenchError("\(url.path): the tag's page or the pinned-first page is not what the store holds")
            }
        }
        return Result(notes: notes, taggedNotes: tagged, pinnedNotes: pinned, tagFirstScreen: log.stats("tag"),
                      pinnedFirstScreen: log.stats("pinned"))
    }

    /// Tags and pins notes of the copy through the app's own book. - Returns: how many of each.
    private static func prepare(_ url: URL) throws -> (tagged: Int, pinned: Int) {
        let book = try UnCloudNotesStack(storeURL: url).open()
        let ids = try book.noteIDs()
        let tagged = stride(from: 0, to: ids.count, by: taggedEvery).map { ids[$0] }
        for id in tagged { try book.changeTags(of: id, adding: [tag]) }
        let pinned = stride(from: ids.count / 2, to: ids.count, by: pinnedEvery).map { ids[$0] }
        for id in pinned { try book.setPinned(true, of: id) }
        return (tagged.count, pinned.count)
    }
}
