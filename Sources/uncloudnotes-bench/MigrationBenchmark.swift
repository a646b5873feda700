import ArgumentParser
import Foundation
import GRDB
import ManagedStore

/// One migration measured side by side: the engine and the hand-written SQL, from the same master.
struct MigrationCase {
    /// How the engine side runs.
    enum Engine: String, ExpressibleByArgument {
        /// The self-migrating stack (`StoreMigrator.migrateIfNeeded`): lock, copy, backup included.
        case stack
        /// An in-place step alone, without the stack's copy and backup.
        case stepAlone = "step-alone"
    }

    var from: Int
    var to: Int
    var images: ImageKind?
    var engine: Engine = .stack

    var name: String { "v\(from) -> v\(to)" + (engine == .stepAlone ? " (in place, step alone)" : "") }

    /// Per size: the v1 cases once (a v1 store has no images), then each image kind's steps and chain.
    static func all(versions: Int, kinds: [ImageKind]) -> [MigrationCase] {
        [MigrationCase(from: 1, to: 2, engine: .stepAlone), MigrationCase(from: 1, to: 2), MigrationCase(from: 1, to: versions)]
            + kinds.flatMap { kind in
                (2..<versions).map { MigrationCase(from: $0, to: $0 + 1, images: kind) } + [MigrationCase(from: 2, to: versions, images: kind)]
            }
    }
}

/// Runs a case `runs` times, interleaved (engine, baseline, floors, then again), each side on its
/// own synced copy of the master, so neither is charged for the other's unwritten pages.
enum MigrationBenchmark {
    /// Every case of a size (`MigrationCase.all`) on its masters, in order: the full run and
    /// `migrations` (the part alone) measure the same list the same way.
    static func measureAll(masters: StoreMasters, kinds: [ImageKind], runs: Int, model: VersionedModel,
                           log: (String) -> Void) throws -> [BenchReport.Migration] {
        try MigrationCase.all(versions: model.currentNumber, kinds: kinds).map { migration in
            log("\(masters.notes) notes, \(migration.images?.rawValue ?? "no") images: \(migration.name)")
            return try measure(migration, masters: masters, runs: runs, model: model)
        }
    }

    static func measure(_ migration: MigrationCase, masters: StoreMasters, runs: Int, model: VersionedModel) throws -> BenchReport.Migration {
        let source = masters.url(version: migration.from, images: migration.from == 1 ? nil : migration.images)
        let folder = masters.folder.appendingPathComponent("run")
        var log = RunLog()
        var storeBytesAfter: Int64 = 0
        var backups: Set<String> = []
        var newIndexes: [String] = []
        var builtIndexes = 0
        for run in 0..<runs {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let engineStore = folder.appendingPathComponent("engine.sqlite"), baselineStore = folder.appendingPathComponent("baseline.sqlite")
            try DiskSync.syncedCopy(of: source, at: engineStore)
            let engine = try ChildProcess.measure(["measure", "--engine", migration.engine.rawValue] + arguments(migration, engineStore))
            if let backup = engine.backup { backups.insert(backup) }
            try DiskSync.syncedCopy(of: source, at: baselineStore)
            let baseline = try ChildProcess.measure(["measure", "--baseline"] + arguments(migration, baselineStore))
            if run == 0 {
                try sameContents(engineStore, baselineStore, version: model.versions[migration.to - 1])
                storeBytesAfter = StoreFiles(url: engineStore).existing.reduce(0) { $0 + fileSize($1) }
                newIndexes = try indexes(of: engineStore).subtracting(try indexes(of: source)).sorted()
            }
            try FileManager.default.removeItem(at: folder)
            for (name, report) in [("engine", engine), ("baseline", baseline)] {
                log.add(report.seconds, to: name)
                log.add(Double(report.bytesWritten), to: name + "Written")
                log.add(Double(report.peakMemoryBytes), to: name + "Peak")
            }
            log.add(try copyFloor(source, to: masters.folder.appendingPathComponent("floor-copy.sqlite")), to: "copy")
            log.add(try vacuumFloor(source, to: masters.folder.appendingPathComponent("floor-vacuum.sqlite")).seconds, to: "vacuum")
            let indexed = try vacuumFloor(source, to: masters.folder.appendingPathComponent("floor-indexed.sqlite"), building: newIndexes)
            log.add(indexed.seconds, to: "indexed")
            builtIndexes = indexed.built
        }
        return BenchReport.Migration(
            name: migration.name, from: migration.from, to: migration.to, images: migration.images?.rawValue ?? "none",
            engineIsStack: migration.engine == .stack, engineSeconds: log.stats("engine"), baselineSeconds: log.stats("baseline"),
            copyFloorSeconds: log.stats("copy"), vacuumIntoFloorSeconds: log.stats("vacuum"), indexedFloorSeconds: log.stats("indexed"),
            newIndexes: builtIndexes, indexesOnNewTables: newIndexes.count - builtIndexes,
            engineBytesWritten: log.stats("engineWritten"), baselineBytesWritten: log.stats("baselineWritten"),
            enginePeakMemoryBytes: log.stats("enginePeak"), baselinePeakMemoryBytes: log.stats("baselinePeak"),
            storeBytesBefore: fileSize(source), storeBytesAfter: storeBytesAfter,
            engineBackup: backups.isEmpty ? nil : backups.sorted().joined(separator: ", "))
    }

    private static func arguments(_ migration: MigrationCase, _ store: URL) -> [String] {
        ["--from", String(migration.from), "--to", String(migration.to), "--store", store.path]
    }

    /// The physical floor of copying: `cp` of the store to a new file, then fsync of it and its folder.
    private static func copyFloor(_ source: URL, to destination: URL) throws -> Double {
        // Removing the measured copy is best effort.
        defer { try? FileManager.default.removeItem(at: destination) }
        let start = DispatchTime.now()
        try ChildProcess.run("/bin/cp", ["--reflink=never", source.path, destination.path])
        try DiskSync.sync(destination)
        return seconds(since: start)
    }

    /// The floor of rewriting the store with SQLite: `VACUUM INTO` a new file, then one fsync of
    /// it and its folder (SQLite's own sync of the copy is turned off, so the bytes are synced once).
    /// `building`: the honest floor (issue 37), the target's indexes that the source lacks built
    /// on the copy before that fsync, as the engine builds them on its new file: no journal, no
    /// syncs of its own, the engine's page cache for a store of this size. A column an index
    /// names that the source does not have yet is added first, empty, which costs SQLite nothing
    /// (so the index sorts NULLs where the target has values); an index on a table the source does
    /// not have is left out. Both make this floor, if anything, low. Returns how many were built.
    private static func vacuumFloor(_ source: URL, to destination: URL, building indexes: [String] = []) throws -> (seconds: Double, built: Int) {
        // Removing the measured copy is best effort.
        defer { try? FileManager.default.removeItem(at: destination) }
        let start = DispatchTime.now()
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: source.path, configuration: configuration)
        try queue.inDatabase { db in
            // VACUUM INTO syncs its output as the source connection's `synchronous` says.
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "VACUUM INTO ?", arguments: [destination.path])
        }
        try queue.close()
        var built = 0
        if !indexes.isEmpty {
            let copy = try DatabaseQueue(path: destination.path)
            try copy.inDatabase { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: "PRAGMA cache_size = -\(scratchCacheKiB(forStoreOf: fileSize(source)))")
                for index in indexes {
                    if try build(index, in: db) { built += 1 }
                }
            }
            try copy.close()
        }
        try DiskSync.sync(destination)
        return (seconds(since: start), built)
    }

    /// The page cache the engine gives the new file of a copying migration (CopyingMigration's
    /// `useAsScratch`: the store's size, at least 2 MB, at most 4 MB), so the floor's index builds
    /// sort with the same memory as the engine's.
    private static func scratchCacheKiB(forStoreOf bytes: Int64) -> Int64 { min(max(bytes / 1024, 2048), 4 * 1024) }

    /// Runs a `CREATE INDEX`, adding (empty) each column it names that the table lacks; false when
    /// the index is on a table the store does not have (left out).
    private static func build(_ index: String, in db: Database) throws -> Bool {
        for _ in 0..<8 {
            do {
                try db.execute(sql: index)
                return true
            } catch let error as DatabaseError {
                let message = error.message ?? ""
                guard let range = message.range(of: "no such column: ") else {
                    if message.contains("no such table") { return false }
                    throw error
                }
                let column = String(message[range.upperBound...])
                guard let table = index.range(of: " ON ").map({ index[$0.upperBound...].prefix { $0 != " " && $0 != "(" } }) else { throw error }
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column)")
            }
        }
        throw BenchError("cannot build \(index) on a copy of the source: it names more than 8 columns the source lacks")
    }

    /// The `CREATE INDEX` statements of a store (SQLite's own indexes have none).
    private static func indexes(of store: URL) throws -> Set<String> {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: store.path, configuration: configuration)
        // A read-only queue: closing it can lose nothing.
        defer { try? queue.close() }
        return Set(try queue.read { try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") })
    }

    /// The engine's result must hold as many objects of each entity as the baseline's, the same
    /// tables with the same columns and indexes (so the baseline builds what the model declares
    /// too), and the same attachments value by value (note, entity, date, caption, width, height,
    /// the image's length and first bytes), so the baseline does the policy's work too.
    private static func sameContents(_ engine: URL, _ baseline: URL, version: ManagedObjectModel) throws {
        let (a, b) = (try StoreContents(url: engine, version: version), try StoreContents(url: baseline, version: version))
        guard a.schema == b.schema else { throw BenchError("the engine's store has \(a.schema) and the baseline's \(b.schema) at \(version.name)") }
        guard a.counts == b.counts else { throw BenchError("the engine's store has \(a.counts) objects by entity and the baseline's \(b.counts) at \(version.name)") }
        let rows = max(a.attachments.count, b.attachments.count)
        if let index = (0..<rows).first(where: { a.attachment($0) != b.attachment($0) }) {
            throw BenchError("the engine's and the baseline's attachment \(index + 1) (by note) differ at \(version.name): \(a.attachment(index)) vs \(b.attachment(index))")
        }
    }

    /// The size of a file, 0 when it does not exist (a -wal that was folded away).
    static func fileSize(_ url: URL) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
