import Foundation
import Synchronization

/// The self-migrating stack: finds which known model version wrote a store and upgrades it to the
/// target version step by step, safely.
///
/// - Everything that can refuse a migration is checked before any file is written: a plan exists,
///   every custom policy is known, the store and its folder can be written, no file of ours is in
///   the way. A refused migration creates nothing but the lock file.
/// - The store's real path is used (a symbolic link is followed and stays a link); the lock
///   (`StoreLock`), the backup and the working files live beside the real file, so aliases share them.
/// - Copying steps read the store and write the new file as scratch (`MigrationFiles`); the store
///   is only read until the end, when it becomes the backup (a hard link) and the new file, synced
///   once, is renamed into place. A plan of one in-place step changes the store itself, in one
///   transaction, after a real backup. Failed, cancelled or killed at any moment, the store is
///   left as it was, or is the complete new version.
/// - The files a run creates are recorded by name in the lock file first; the next run removes
///   exactly those after an interruption.
/// - The migrated store keeps the original's permissions and owner; backups are 0600.
/// - A text index beside the store is carried to the new store when the passes provably kept what
///   it describes (`TextIndexCarry`), after the store is replaced; otherwise it is rebuilt, as
///   the last stage (`textIndex`, `StoreMigrator+TextIndex.swift`) or by the first search.
/// - A store whose hashes match no known version, or a newer one, is refused and never changed.
public final class StoreMigrator {
    /// What a store file is to this migrator, decided from its metadata alone before anything is written.
    public enum State: Sendable {
        /// No store file: it will be created at the target version.
        case missing
        /// Written by the target version: it opens as it is.
        case current(ManagedObjectModel)
        /// Written by an older version, and the plan that reaches the target.
        case needsMigration(MigrationPlan)
        /// Written by an older version, but no plan reaches the target: why is in the error.
        case cannotMigrate(from: ManagedObjectModel, because: MigrationError)
        /// Written by a version newer than the target (the app runs pinned to an older version).
        case newer(ManagedObjectModel)
        /// Its hashes match no version of the model.
        case unknown(StoreMetadata)
    }

    /// The store as given; `realStoreURL` is the file it resolves to.
    public let storeURL: URL
    /// Every version of the model, to recognise which one wrote the store.
    public let model: VersionedModel
    /// The version the store is migrated to (by default the model's current one).
    public let target: ManagedObjectModel
    /// The mapping models the app ships; a step without one is inferred.
    public let mappingModels: [MappingModel]
    /// The custom policy classes the mapping models may name.
    public let policies: MigrationPolicyRegistry
    /// How the migrated store is opened and written.
    public let options: StoreOptions
    /// The text index the store keeps beside it (`TextSearchIndex`), built as the migration's
    /// last stage so the first search after an upgrade does not build it (18 to 48 s at 100,000
    /// notes, in silence, before issue #38); nil for none, or when the target version lacks what
    /// it indexes.
    public let textIndex: TextIndexConfiguration?

    /// The metadata the last decision was made from, and that decision: reused while the
    /// store's stamp holds, so the re-check after the lock and the open that follows a launch's
    /// check read and plan nothing again.
    private let decision = Mutex<(reading: StoreMetadataReading, state: State?)?>(nil)

    /// A migrator for the store at `storeURL`; nothing is read or written until it is asked.
    public init(storeURL: URL, model: VersionedModel, target: ManagedObjectModel? = nil,
                mappingModels: [MappingModel] = [], policies: MigrationPolicyRegistry = MigrationPolicyRegistry(),
                options: StoreOptions = StoreOptions(), textIndex: TextIndexConfiguration? = nil) {
        self.storeURL = storeURL
        self.model = model
        self.target = target ?? model.current
        self.mappingModels = mappingModels
        self.policies = policies
        self.options = options
        self.textIndex = textIndex
    }

    /// The label of a version in file names: `v1` for the first version, and so on.
    public func label(of version: ManagedObjectModel) -> String {
        model.label(of: version)
    }

    /// The store's real file: symbolic links (of the file or its folders) resolved.
    public var realStoreURL: URL { StorePath.real(storeURL) }

    /// Writes a private copy (0600) of the store as it is now, its `-wal` folded in (a clone where
    /// the file system can make one) and its external files linked beside it, synced: for keeping
    /// the store as each step of a migration left it. The destination must not exist.
    @discardableResult
    public func copyStore(to destination: URL) throws -> FileDuplication {
        let method = try MigrationFiles.copyFolded(realStoreURL, to: destination)
        try ExternalDataFolder(storeAt: destination).replaceContents(withFilesOf: ExternalDataFolder(storeAt: realStoreURL))
        try DurableFiles.sync(destination)
        try DurableFiles.syncFolder(destination.deletingLastPathComponent())
        return method
    }

    /// Where the backup of a store at `version` goes: beside the real store file.
    public func backupURL(for version: ManagedObjectModel) -> URL {
        URL(fileURLWithPath: realStoreURL.path + ".\(label(of: version))-backup")
    }

    /// What the store needs, from its metadata alone (read-only). The metadata are read and the
    /// plan made once while the store stays as it was (`StoreFileStamp`).
    public func state() throws -> State {
        guard try StorePath.check(storeURL) else { return .missing }
        let reading: StoreMetadataReading
        if let known = decision.withLock({ $0 }), known.reading.holds(forStoreAt: storeURL) {
            if let state = known.state { return state }
            reading = known.reading
        } else {
            reading = try StoreMetadataReading.read(storeAt: storeURL)
        }
        let state = try decide(from: reading.metadata)
        decision.withLock { $0 = (reading, state) }
        return state
    }

    /// The store's metadata, read already by the caller's own look at the store (which model
    /// wrote it): the first check decides from them, while the store is as it was, without
    /// reading them again.
    package func use(_ reading: StoreMetadataReading) {
        decision.withLock { $0 = (reading, nil) }
    }

    /// The metadata the last `state()` decided from, while the store is still as it was then:
    /// for opening the store without reading them again.
    package var metadataReading: StoreMetadataReading? {
        decision.withLock { $0?.reading }.flatMap { $0.holds(forStoreAt: storeURL) ? $0 : nil }
    }

    private func decide(from metadata: StoreMetadata) throws -> State {
        guard let version = model.versions.first(where: { metadata.isCompatible(with: $0) }) else {
            return .unknown(metadata)
        }
        if version.name == target.name { return .current(version) }
        let order = { (candidate: ManagedObjectModel) in self.model.versions.firstIndex { $0.name == candidate.name } ?? 0 }
        if order(version) > order(target) { return .newer(version) }
        do {
            return .needsMigration(try MigrationPlanner.plan(from: version, to: target, in: model, mappingModels: mappingModels))
        } catch let error as MigrationError {
            return .cannotMigrate(from: version, because: error)
        }
    }

    /// The custom policy classes a plan names that this program does not have, each once.
    public func missingPolicies(in plan: MigrationPlan) -> [String] {
        let known = Set(policies.classNames)
        var missing: [String] = []
        for name in plan.steps.flatMap(\.customPolicies) where !known.contains(name) && !missing.contains(name) {
            missing.append(name)
        }
        return missing
    }

    /// Brings the store to the target version, if it is not there yet.
    /// - Returns: the plan that was run, nil when nothing was needed.
    @discardableResult
    public func migrateIfNeeded(observer: @escaping (MigrationEvent) -> Void = { _ in },
                                cancellation: MigrationCancellation? = nil) throws -> MigrationPlan? {
        guard try plannedMigration() != nil else { return nil }
        let store = realStoreURL
        try StorePath.checkWritable(store)
        let lock = try StoreLock(for: store) { observer(.waitingForLock) }
        defer { withExtendedLifetime(lock) {} }
        let owner = try FileOwnership(of: store)
        lock.setOwner(user: owner.user, group: owner.group)
        let cleaned = try lock.removeRecordedFiles()
        if !cleaned.isEmpty { observer(.cleanedLeftovers(cleaned)) }
        // Another process may have migrated the store while this one waited for the lock.
        guard let plan = try plannedMigration() else { return nil }
        let files = MigrationFiles(store: store, backup: backupURL(for: plan.source))
        try checkNothingInTheWay(of: files)
        observer(.planned(plan))
        try lock.record(files.created.map(\.lastPathComponent))
        do {
            try run(plan, files: files, owner: owner, searchIndex: TextIndexCarry(besideStoreAt: storeURL), observer: observer,
                    cancellation: cancellation)
        } catch {
            files.removeCreated()
            // The created files were just removed: a lock file still naming them only makes the
            // next run remove files that are gone, and the migration's own error is the one to report.
            try? lock.record([])
            throw Self.aboutTheStore(error, working: files.working, store: store)
        }
        // The store is migrated: a lock file still naming the run's (now gone) files only makes
        // the next run look for them, so failing to clear it is a warning, not a failed migration.
        do { try lock.record([]) } catch { observer(.warning("\(error)")) }
        buildTextIndex(observer: observer)
        observer(.finished)
        return plan
    }

    /// The working copy is this program's business: an error found in it (a damaged table, say) is,
    /// to the user, about their store, which is unchanged.
    private static func aboutTheStore(_ error: Error, working: URL, store: URL) -> Error {
        guard var storeError = error as? StoreError, storeError.path == working.path else { return error }
        storeError.path = store.path
        return storeError
    }

    /// The plan to run, nil when the store is missing or current; throws whatever refuses it.
    private func plannedMigration() throws -> MigrationPlan? {
        switch try state() {
        case .missing, .current:
            return nil
        case .newer(let version):
            throw MigrationError.storeNewer(store: storeURL.path, version: version.name, target: target.name)
        case .unknown:
            throw MigrationError.unknownVersion(store: storeURL.path, model: model.name)
        case .cannotMigrate(_, let error):
            throw error.refusing(store: storeURL.path)
        case .needsMigration(let plan):
            let missing = missingPolicies(in: plan)
            guard missing.isEmpty else {
                throw MigrationError.missingPolicies(store: storeURL.path, names: missing)
            }
            return plan
        }
    }

    // MARK: Files

    /// Refuses, before writing anything, when a file this run must create is already there (not
    /// one recorded by an interrupted run: the user's), or the backup's place holds a folder.
    private func checkNothingInTheWay(of files: MigrationFiles) throws {
        if let taken = files.created.first(where: DurableFiles.exists) {
            throw MigrationError.file(path: taken.path, problem: .inTheWay)
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: files.backup.path, isDirectory: &isFolder), isFolder.boolValue {
            throw MigrationError.file(path: files.backup.path, problem: .folderAtBackup)
        }
    }

    /// `searchIndex`: the store's text index, carried to the new store when the passes kept what
    /// it describes (`TextIndexCarry`), else left to be rebuilt.
    private func run(_ plan: MigrationPlan, files: MigrationFiles, owner: FileOwnership, searchIndex: TextIndexCarry?,
                     observer: @escaping (MigrationEvent) -> Void, cancellation: MigrationCancellation?) throws {
        var searchIndex = searchIndex
        // The store is only read until the end: its -wal, if any, is read through, and copied with
        // it where a copy is made. External-data folders an interrupted run left go first.
        [files.working, files.nextWorking].forEach { ExternalDataFolder(storeAt: $0).removeSupportFolder() }
        let passes = try MigrationPass.passes(of: plan, registry: policies)
        if passes.count == 1, passes[0].isInPlace {
            // One transaction in the store itself, after a real backup: the store is then the old
            // version or the new one, and nothing of its size is copied but the backup.
            let method = try files.writeBackup(linking: false)
            let kept: KeptObjects
            do {
                try owner.applyOwner(to: files.backup)
                try ExternalDataFolder(storeAt: files.backup).entries().forEach(owner.applyOwner)
                observer(.backupCreated(path: files.backup.path, method: method))
                kept = try run(passes[0], of: plan, on: files.store, files: files, observer: observer, cancellation: cancellation)
            } catch {
                // The store is unchanged (the transaction rolled back): a failed migration leaves no backup.
                files.removeBackup()
                throw error
            }
            searchIndex?.note(kept)
            searchIndex?.finish(from: files.backup, model: plan.source, to: files.store, model: plan.destination) {
                observer(.warning($0))
            }
            return
        }
        var current = files.store
        for pass in passes {
            if pass.isInPlace, current == files.store {
                try files.makeWorkingCopy()
                current = files.working
            }
            let kept = try run(pass, of: plan, on: current, files: files, observer: observer, cancellation: cancellation)
            searchIndex?.note(kept)
            if !pass.isInPlace { current = files.working }
        }
        if cancellation?.isCancelled == true { throw MigrationError.cancelled }
        try MigrationFiles.fold(files.working)
        try owner.apply(to: files.working)
        try DurableFiles.sync(files.working)
        do {
            // The store was only read: it becomes the backup, through a hard link.
            let method = try files.writeBackup(linking: true)
            if method != .hardLink { try owner.applyOwner(to: files.backup) }
            try ExternalDataFolder(storeAt: files.backup).entries().forEach(owner.applyOwner)
            // The working copy's external files become the store's by the rename (the same inodes).
            try ExternalDataFolder(storeAt: files.working).entries().forEach(owner.applyOwner)
            observer(.backupCreated(path: files.backup.path, method: method))
            // The store's own -wal must not outlive its main file: folded in just before the rename.
            try MigrationFiles.fold(files.store)
            try ExternalDataFolder.replaceStoreFiles(of: ExternalDataFolder(storeAt: files.store),
                                                     with: ExternalDataFolder(storeAt: files.working)) {
                try DurableFiles.renameQuickly(files.working, to: files.store)
            }
        } catch {
            // Before the rename the store is the old one, unchanged: a failed migration leaves no backup.
            if DurableFiles.exists(files.working) { files.removeBackup() }
            throw error
        }
        // Committed: the store is the new version whatever follows, so what fails now is a
        // warning, never a failed migration. The folders the store's files were linked into may
        // be new (owned as the store is), and the rename is made durable.
        let external = ExternalDataFolder(storeAt: files.store)
        for folder in [external.supportFolder, external.url] where DurableFiles.exists(folder) {
            do { try owner.applyOwner(to: folder) } catch { observer(.warning("\(error)")) }
        }
        do {
            try DurableFiles.syncFolder(files.store.deletingLastPathComponent())
        } catch {
            observer(.warning("the store is migrated, but \(error); a power loss now could bring back the old version, "
                + "which the backup \(files.backup.lastPathComponent) holds too"))
        }
        searchIndex?.finish(from: files.backup, model: plan.source, to: files.store, model: plan.destination) {
            observer(.warning($0))
        }
    }

    // MARK: Steps

    /// Runs one pass on `store` (the store itself, or the working copy): an in-place step changes
    /// it, a copying pass writes the new working copy from it. Each step of the pass is announced
    /// as it starts and finishes.
    /// - Returns: what the pass kept of the objects, for the search index.
    private func run(_ pass: MigrationPass, of plan: MigrationPlan, on store: URL, files: MigrationFiles,
                     observer: @escaping (MigrationEvent) -> Void, cancellation: MigrationCancellation?) throws -> KeptObjects {
        let count = Double(plan.steps.count)
        let first = plan.steps[pass.steps.lowerBound], last = plan.steps[pass.steps.upperBound - 1]
        // A composed pass is announced before its steps, so they can be told as one pass.
        if let mapping = pass.mapping, pass.steps.count > 1 {
            observer(.composedPass(first: first, last: last, mapping: mapping))
        }
        for index in pass.steps { observer(.stepStarted(index: index, step: plan.steps[index])) }
        // A jump of progress over a whole step (a small store in a long pass) reports that step
        // done on the way, so every step is seen to run before the next.
        var reached = pass.steps.lowerBound
        let progress = { (fraction: Double, detail: String?) in
            let position = Double(pass.steps.lowerBound) + fraction * Double(pass.steps.count)
            let index = min(pass.steps.upperBound - 1, Int(position))
            while reached < index {
                observer(.progress(step: reached, stepFraction: 1, overallFraction: Double(reached + 1) / count, detail: detail))
                reached += 1
            }
            observer(.progress(step: index, stepFraction: position - Double(index), overallFraction: position / count, detail: detail))
        }
        progress(0, nil)
        let start = ContinuousClock.now
        let kept: KeptObjects
        let statistics: MigrationStatistics
        if let mapping = pass.mapping {
            let migrated = try CopyingMigration.run(from: store, knownMetadata: metadataReading, sourceModel: first.source,
                                                    to: files.nextWorking, destinationModel: last.destination, mappingModel: mapping,
                                                    resolvedPolicies: pass.policies, options: options,
                                                    progress: { progress($0.fraction, $0.entityMappingName) }, cancellation: cancellation)
            try files.promoteNextWorking()
            kept = migrated.kept
            statistics = MigrationStatistics(steps: pass.steps, seconds: (ContinuousClock.now - start).inSeconds,
                                             entityMappings: migrated.statistics)
        } else if case .inPlace(let inferred) = first.kind {
            if cancellation?.isCancelled == true { throw MigrationError.cancelled }
            guard let changed = try InPlaceMigration.migrateCountingRows(storeAt: store, knownMetadata: metadataReading, from: first.source,
                                                                         to: first.destination, inferred: inferred, options: options) else {
                throw MigrationError.mapping(.inPlaceStepDeclined)
            }
            kept = pass.keptInPlace(of: plan)
            statistics = MigrationStatistics(inPlaceStep: pass.steps.lowerBound,
                                             seconds: (ContinuousClock.now - start).inSeconds, rowsWritten: changed)
        } else {
            kept = KeptObjects()
            statistics = MigrationStatistics(steps: pass.steps, seconds: 0, entityMappings: [])
        }
        observer(.passFinished(statistics))
        for index in pass.steps {
            observer(.progress(step: index, stepFraction: 1, overallFraction: Double(index + 1) / count, detail: nil))
            observer(.stepFinished(index: index))
        }
        return kept
    }
}
