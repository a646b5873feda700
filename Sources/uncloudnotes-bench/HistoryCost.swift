import Foundation
import GRDB
import ManagedStore
import UnCloudNotesKit

/// What persistent history adds to a save (issue 24): one note added and saved, on two copies of
/// the read-path store, one opened with history tracking and one without, alternating save by
/// save so a slow moment of the machine hits both. Each save is timed from the note's insert to
/// the committed transaction (synced as the store syncs it, WAL mode).
enum HistoryCost {
    struct Result: Codable {
        var notes: Int
        var withoutHistory: Stats
        var withHistory: Stats
        var ratio: Double { withHistory.median / max(withoutHistory.median, 1e-9) }
    }

    /// Saves per run and side.
    static let savesPerRun = 200

    static func measure(storeAt url: URL, notes: Int, runs: Int, scratch: URL) throws -> Result {
        let model = try UnCloudNotesModel.load()
        var log = RunLog()
        for run in 0..<runs {
            let stores = try [false, true].map { tracking -> PersistentStore in
                let copy = scratch.appendingPathComponent("history-\(run)-\(tracking).sqlite")
                try DiskSync.syncedCopy(of: url, at: copy)
                if !tracking { try removeHistory(from: copy) }
                return try PersistentStore.open(at: copy, model: model.current, options: StoreOptions(recordsPersistentHistory: tracking))
            }
            defer {
                for store in stores {
                    // The copies are scratch: closing and removing them is best effort.
                    try? store.close()
                    StoreFiles(url: store.url).remove()
                }
            }
            let contexts = stores.map { ManagedObjectContext(store: $0) }
            var times: [[Double]] = [[], []]
            for index in 0..<savesPerRun {
                for (side, context) in contexts.enumerated() {
                    let start = DispatchTime.now()
                    let note = try context.insertObject(entityName: "Note")
                    note.setValue(.string("Saved \(index)"), forKey: "title")
                    note.setValue(.string("A note saved while measuring."), forKey: "body")
                    note.setValue(.date(Date()), forKey: "dateCreated")
                    // As the app saves a note at v5: its identifier and modified date with it.
                    note.setValue(.uuid(UUID()), forKey: "identifier")
                    note.setValue(.date(Date()), forKey: "dateModified")
                    try context.save()
                    times[side].append(seconds(since: start))
                    context.reset()
                }
            }
            log.add(Stats(times[0]).median, to: "without")
            log.add(Stats(times[1]).median, to: "with")
        }
        return Result(notes: notes, withoutHistory: log.stats("without"), withHistory: log.stats("with"))
    }

    /// The store as it was before history was recorded in it (the app's stack records it), so
    /// that it opens writable without tracking.
    private static func removeHistory(from url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            for table in ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"] { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
            try db.execute(sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT > 16000")
        }
        try queue.close()
    }
}
