import Foundation

/// A migration as it will run, for `store migrate --dry-run --explain`: which steps fuse into one
/// pass, which run in place, which backup is made, and for each pass every SQL statement in order,
/// its parameters written in. The SQL is what the migration runs on this very store: the
/// migration is run on a scratch copy in the temporary folder with every statement recorded
/// (`SQLRecorder`), then the copy is removed; file names in it are the store's own.
public struct MigrationExplanation: Sendable {
    public struct Pass: Sendable {
        /// The plan's steps the pass runs: more than one when their mappings were composed.
        public var steps: Range<Int>
        /// Changes the file in place (an inferred step SQL alone can do), rather than copying into a new file.
        public var isInPlace: Bool
        /// The file the pass reads, and the one it writes (the same file for an in-place pass).
        public var reads: String
        public var writes: String
        /// Functions written in Swift that the SQL calls (a set-based policy's): to run the SQL by
        /// hand, register them on the connection that writes.
        public var functions: [MigrationFunction]
        public var statements: [SQLRecorder.Statement]
        /// What the scratch run of the pass read, wrote and took.
        public var statistics: MigrationStatistics?
    }

    public var plan: MigrationPlan
    public var passes: [Pass]
    /// Where the backup of the store as it was goes, and how it is made.
    public var backup: String
    public var backupMethod: String
}

extension StoreMigrator {
    /// Runs the migration the store needs on a scratch copy, recording its SQL, and says how it
    /// ran; the store is only read. Nil when the store is current; throws what would refuse it.
    public func explain() throws -> MigrationExplanation? {
        guard case .needsMigration(let plan) = try state() else { return nil }
        let passes = try MigrationPass.passes(of: plan, registry: policies)
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-explain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // Its real path: the scratch migration resolves symbolic links, and its SQL names real paths.
        let scratch = StorePath.real(made)
        // Only a scratch copy is in it, and the explanation is complete or thrown away.
        defer { try? FileManager.default.removeItem(at: made) }
        let copy = scratch.appendingPathComponent(realStoreURL.lastPathComponent)
        try copyStore(to: copy)
        let recorder = SQLRecorder()
        var recording = options
        recording.sqlRecorder = recorder
        let scratchMigrator = StoreMigrator(storeURL: copy, model: model, target: target, mappingModels: mappingModels,
                                            policies: policies, options: recording)
        var starts: [Int: Int] = [:], ends: [Int: Int] = [:], statistics: [Int: MigrationStatistics] = [:]
        try scratchMigrator.migrateIfNeeded { event in
            switch event {
            case .stepStarted(let index, _):
                if let pass = passes.firstIndex(where: { $0.steps.lowerBound == index }) { starts[pass] = recorder.statements.count }
            case .passFinished(let stats):
                guard let pass = passes.firstIndex(where: { $0.steps == stats.steps }) else { return }
                ends[pass] = recorder.statements.count
                statistics[pass] = stats
            default:
                break
            }
        }
        let renaming = ScratchPaths(scratch: scratch.path, real: realStoreURL.deletingLastPathComponent().path)
        let recorded = recorder.statements
        let store = realStoreURL.path
        let files = MigrationFiles(store: realStoreURL, backup: backupURL(for: plan.source))
        let alone = passes.count == 1 && passes[0].isInPlace
        // As `run` goes: an in-place step before any copying pass changes a working copy, never
        // the store; a copying pass writes the next working copy from the current file.
        var current = store
        let explained = try passes.enumerated().map { number, pass -> MigrationExplanation.Pass in
            if pass.isInPlace, !alone, current == store { current = files.working.path }
            let reads = current
            let writes = pass.isInPlace ? current : files.nextWorking.path
            if !pass.isInPlace { current = files.working.path }
            let statements = recorded[(starts[number] ?? 0)..<(ends[number] ?? starts[number] ?? 0)].map(renaming.apply)
            // Each function once, by name (two mappings may both compute identifiers), sorted.
            let functions = try zip(pass.mapping?.entityMappings ?? [], pass.policies).flatMap { mapping, policy in
                try (policy as? SetBasedMigrationPolicy)?.computedValues(for: mapping).values.map(\.function) ?? []
            }.reduce(into: [String: MigrationFunction]()) { $0[$1.name] = $1 }.values.sorted { $0.name < $1.name }
            return MigrationExplanation.Pass(steps: pass.steps, isInPlace: pass.isInPlace, reads: reads, writes: writes,
                                             functions: functions, statements: statements, statistics: statistics[number])
        }
        return MigrationExplanation(plan: plan, passes: explained, backup: files.backup.path,
                                    backupMethod: alone
                                        ? "a copy (a clone where the file system can make one), made before the step changes the store"
                                        : "a hard link to the store (a private copy when the store is not 0600, has a -wal, or the file system refuses links), made once the new file is complete")
    }
}

/// Puts the store's folder where the scratch folder is named in recorded SQL and file names.
private struct ScratchPaths {
    let scratch: String
    let real: String

    func apply(_ statement: SQLRecorder.Statement) -> SQLRecorder.Statement {
        var statement = statement
        statement.file = replaced(statement.file)
        statement.sql = replaced(statement.sql)
        return statement
    }

    private func replaced(_ text: String) -> String {
        // URIs (a read-only attachment) first: percent-encoded there.
        text.replacingOccurrences(of: Self.uri(scratch), with: Self.uri(real)).replacingOccurrences(of: scratch, with: real)
    }

    private static func uri(_ folder: String) -> String {
        var uri = URL(fileURLWithPath: folder, isDirectory: true).absoluteString
        if uri.hasSuffix("/") { uri.removeLast() }
        return uri
    }
}
