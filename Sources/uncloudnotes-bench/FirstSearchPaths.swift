import Foundation
import ManagedStore
import UnCloudNotesKit

/// The first search of a big store (issue 38, bug 7: 48 s at 100,000 notes, building a 111 MB
/// index beside a 30 MB store). Per run, on a synced copy of the v1 master: the app's stack
/// upgrades it to the current version, its search index built as the migration's last stage
/// (timed apart from the whole upgrade), then the search, every match's row read, must
/// answer without building anything; the index's size against the store's. Then the same store
/// without its index (deleted, or made by another program), where the first search builds it.
enum FirstSearchPaths {
    struct Result: Codable {
        var notes: Int
        var query: String
        /// The whole upgrade from v1, index included, in process.
        var upgrade: Stats
        /// Of which the search index's stage.
        var indexStage: Stats
        /// The first search after the upgrade: its IDs and every match's row.
        var firstSearch: Stats
        var matches: Int
        /// Entries the first search after the upgrade had to fold (0: it built nothing).
        var foldedByFirstSearch: Int
        /// The first search of the same store with no index: it builds the index.
        var firstSearchBuilding: Stats
        var indexBytes: Int64
        var storeBytes: Int64
        var indexToStore: Double { Double(indexBytes) / Double(max(storeBytes, 1)) }
    }

    /// The query: two words no generated note holds, so every trigram list is read and
    /// every candidate checked, and the answer is empty.
    static let query = "omicron sigma"

    static func measure(v1Master: URL, notes: Int, runs: Int, scratch: URL) throws -> Result {
        // A folder of its own, made anew each run: the store, its index, lock and backup.
        let folder = scratch.appendingPathComponent("first-search")
        let url = folder.appendingPathComponent("notes.sqlite")
        // The folder is scratch: removing it is best effort.
        defer { try? FileManager.default.removeItem(at: folder) }
        var log = RunLog()
        var matches = 0, folded = 0
        var sizes: (index: Int64, store: Int64) = (0, 0)
        for _ in 0..<runs {
            // The last run's scratch, if any: the folder is made again just below, which fails loudly.
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try DiskSync.syncedCopy(of: v1Master, at: url)
            var indexSeconds = 0.0
            let start = DispatchTime.now()
            let book = try UnCloudNotesStack(storeURL: url).open { event in
                if case .textIndexed(_, let seconds) = event { indexSeconds = seconds }
            }
            log.add(seconds(since: start), to: "upgrade")
            log.add(indexSeconds, to: "index")
            let searchStart = DispatchTime.now()
            matches = try book.rows(of: book.noteIDs(matching: query)).count
            log.add(seconds(since: searchStart), to: "first")
            folded = book.notesFoldedBySearches ?? -1
            // Each with its write-ahead log, which may still hold the last commits.
            let index = StoreFiles(url: TextSearchIndex.url(besideStoreAt: url))
            sizes = (try fileSize(index), try fileSize(StoreFiles(url: url)))
            // The same store with no index (nor its log, which SQLite would apply to a new file): the first search builds it.
            index.remove()
            let unindexed = try UnCloudNotesStack(storeURL: url).open()
            let buildStart = DispatchTime.now()
            guard try unindexed.rows(of: unindexed.noteIDs(matching: query)).count == matches else {
                throw BenchError("\(url.path): the search that built the index found other notes")
            }
            log.add(seconds(since: buildStart), to: "building")
        }
        return Result(notes: notes, query: query, upgrade: log.stats("upgrade"), indexStage: log.stats("index"),
                      firstSearch: log.stats("first"), matches: matches, foldedByFirstSearch: folded,
                      firstSearchBuilding: log.stats("building"), indexBytes: sizes.index, storeBytes: sizes.store)
    }

    private static func fileSize(_ files: StoreFiles) throws -> Int64 {
        try files.existing.reduce(0) { total, url in
            total + ((try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }
}
