import Foundation

/// The self-migrating stack: finds which known model version wrote a store and upgrades it to the
/// target version step by step, safely.
///
/// - The store is locked (`StoreLock`) so only one process migrates it; another waits.
/// - Leftovers of an interrupted run are removed first; the store is consolidated (its `-wal`
///   folded into the main file) so nothing stale can remain when a step's new file replaces it.
/// - Before the first step the store is copied to `<store>.<version>-backup` (made under a
///   `.partial` name and renamed, so a backup is always whole).
/// - In-place steps run in one SQLite transaction; copying steps write `<store>.migrating` and
///   rename it over the store only once it is complete and synced. Killed at any moment, the next
///   run finds either the old store intact or the finished new one.
/// - A store whose hashes match no known version, or a newer one, is refused and never changed.
public final class StoreMigrator {
    public enum State: Sendable {
        case missing
        case current(ManagedObjectModel)
        case needsMigration(MigrationPlan)
        /// Written by a version newer than the target (the app runs pinned to an older version).
        case newer(ManagedObjectModel)
        /// Its hashes match no version of the model.
        case unknown(StoreMetadata)
    }

    public let storeURL: URL
    public let model: VersionedModel
    public let target: ManagedObjectModel
    public let mappingModels: [MappingModel]
    public let policies: MigrationPolicyRegistry
    public let options: StoreOptions

    public init(storeURL: URL, model: VersionedModel, target: ManagedObjectModel? = nil,
                mappingModels: [MappingModel] = [], policies: MigrationPolicyRegistry = MigrationPolicyRegistry(),
                options: StoreOptions = StoreOptions()) {
        self.storeURL = storeURL
        self.model = model
        self.target = target ?? model.current
        self.mappingModels = mappingModels
        self.policies = policies
        self.options = options
    }

    /// The label of a version in file names: `v1` for the first version, and so on.
    public func label(of version: ManagedObjectModel) -> String {
        "v\((model.versions.firstIndex { $0.name == version.name } ?? 0) + 1)"
    }

    public var migratingURL: URL { URL(fileURLWithPath: storeURL.path + ".migrating") }

    public func backupURL(for version: ManagedObjectModel) -> URL {
        URL(fileURLWithPath: storeURL.path + ".\(label(of: version))-backup")
    }

    /// What the store needs, from its metadata alone (read-only).
    public func state() throws -> State {
        guard FileManager.default.fileExists(atPath: storeURL.path) else { return .missing }
        let metadata = try StoreMetadata.read(storeAt: storeURL)
        guard let version = model.versions.first(where: { metadata.isCompatible(with: $0) }) else {
            return .unknown(metadata)
        }
        if version.name == target.name { return .current(version) }
        let order = { (candidate: ManagedObjectModel) in self.model.versions.firstIndex { $0.name == candidate.name } ?? 0 }
        if order(version) > order(target) { return .newer(version) }
        return .needsMigration(try MigrationPlanner.plan(from: version, to: target, in: model, mappingModels: mappingModels))
    }

    /// Brings the store to the target version, if it is not there yet.
    /// - Returns: the plan that was run, nil when nothing was needed.
    @discardableResult
    public func migrateIfNeeded(observer: @escaping (MigrationEvent) -> Void = { _ in },
                                cancellation: MigrationCancellation? = nil) throws -> MigrationPlan? {
        let lock = try StoreLock(for: storeURL) { observer(.waitingForLock) }
        defer { withExtendedLifetime(lock) {} }
        let cleaned = removeLeftovers()
        if !cleaned.isEmpty { observer(.cleanedLeftovers(cleaned)) }
        switch try state() {
        case .missing, .current:
            return nil
        case .newer(let version):
            throw MigrationError("\(storeURL.path): the store was written by \(version.name), newer than \(target.name) "
                + "which this program runs as; it was not changed")
        case .unknown:
            throw MigrationError("\(storeURL.path): the store's model version hashes match no known version of \(model.name) "
                + "(written by a newer version of the app?); it was not changed")
        case .needsMigration(let plan):
            observer(.planned(plan))
            try consolidate(plan.source)
            try makeBackup(of: plan.source, observer: observer)
            for (index, step) in plan.steps.enumerated() {
                try run(step, index: index, of: plan.steps.count, observer: observer, cancellation: cancellation)
            }
            observer(.finished)
            return plan
        }
    }

    // MARK: Files

    /// Removes what an interrupted run can leave: a half-written new store and a half-copied backup.
    private func removeLeftovers() -> [String] {
        var removed: [String] = []
        let manager = FileManager.default
        let folder = storeURL.deletingLastPathComponent()
        let prefix = storeURL.lastPathComponent + "."
        let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            if rest.hasPrefix("migrating") || rest.hasSuffix("-backup.partial") {
                try? manager.removeItem(at: folder.appendingPathComponent(name))
                removed.append(name)
            }
        }
        return removed.sorted()
    }

    /// Folds the store's `-wal` into the main file and removes `-wal`/`-shm`, so the main file
    /// alone is the whole store.
    private func consolidate(_ version: ManagedObjectModel) throws {
        let files = StoreFiles(url: storeURL)
        guard files.existing.count > 1 else { return }
        var options = self.options
        options.isReadOnly = false
        options.journalMode = .delete
        let store = try PersistentStore.open(at: storeURL, model: version, options: options)
        try store.close()
        for leftover in files.existing where leftover != storeURL {
            try? FileManager.default.removeItem(at: leftover)
        }
    }

    private func makeBackup(of version: ManagedObjectModel, observer: (MigrationEvent) -> Void) throws {
        let backup = backupURL(for: version)
        guard !FileManager.default.fileExists(atPath: backup.path) else {
            observer(.backupCreated(path: backup.path))
            return
        }
        let partial = URL(fileURLWithPath: backup.path + ".partial")
        do {
            try FileManager.default.copyItem(at: storeURL, to: partial)
            try DurableFiles.sync(partial)
            try DurableFiles.rename(partial, to: backup)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw MigrationError("\(backup.path): cannot write the backup (\(error.localizedDescription)); the store was not changed")
        }
        observer(.backupCreated(path: backup.path))
    }

    // MARK: Steps

    private func run(_ step: MigrationStep, index: Int, of count: Int, observer: @escaping (MigrationEvent) -> Void,
                     cancellation: MigrationCancellation?) throws {
        observer(.stepStarted(index: index, step: step))
        observer(.message("Source model entity hashes: " + describe(step.source)))
        observer(.message("Destination model entity hashes: " + describe(step.destination)))
        observer(.message("Migrating store \(storeURL.path) from \(step.source.name) to \(step.destination.name)"))
        let progress = { (fraction: Double, detail: String?) in
            observer(.progress(step: index, stepFraction: fraction, overallFraction: (Double(index) + fraction) / Double(count), detail: detail))
        }
        do {
            switch step.kind {
            case .inPlace(let inferred):
                observer(.message("Inferred mapping (in place): " + inferred.changes.joined(separator: "; ")))
                progress(0, nil)
                if cancellation?.isCancelled == true { throw MigrationError.cancelled }
                guard try InPlaceMigration.migrate(storeAt: storeURL, from: step.source, to: step.destination,
                                                   inferred: inferred, options: options) else {
                    throw MigrationError("the in-place migration declined a step it had planned")
                }
            case .inferredCopy(let inferred, let reason):
                observer(.message("Inferred mapping (copied\(reason.map { ": \($0)" } ?? "")): " + inferred.changes.joined(separator: "; ")))
                progress(0, nil)
                try copy(step, mapping: inferred.mappingModel, progress: progress, cancellation: cancellation)
            case .mappingModel(let mapping):
                observer(.message("Mapping model: \(mapping.name) (\(mapping.entityMappings.map(\.name).joined(separator: ", ")))"))
                progress(0, nil)
                try copy(step, mapping: mapping, progress: progress, cancellation: cancellation)
            }
        } catch {
            observer(.message("Migration failed: \(error)"))
            throw error
        }
        progress(1, nil)
        observer(.message("Migration Completed Successfully"))
        observer(.stepFinished(index: index))
    }

    /// Migrates into `<store>.migrating`, then renames it over the store.
    private func copy(_ step: MigrationStep, mapping: MappingModel, progress: @escaping (Double, String?) -> Void,
                      cancellation: MigrationCancellation?) throws {
        let destination = migratingURL
        StoreFiles(url: destination).remove()
        try MigrationManager.migrateStore(from: storeURL, sourceModel: step.source, to: destination,
                                          destinationModel: step.destination, mappingModel: mapping, policies: policies,
                                          options: options, progress: { progress($0.fraction, $0.entityMappingName) },
                                          cancellation: cancellation)
        do {
            try DurableFiles.sync(destination)
            StoreFiles(url: storeURL).all.dropFirst().forEach { try? FileManager.default.removeItem(at: $0) }
            try DurableFiles.rename(destination, to: storeURL)
        } catch {
            StoreFiles(url: destination).remove()
            throw MigrationError("\(storeURL.path): cannot replace the store with the migrated one (\(error.localizedDescription)); the store was not changed")
        }
    }

    private func describe(_ version: ManagedObjectModel) -> String {
        version.entityVersionHashes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.hexString.prefix(16))…" }.joined(separator: ", ")
    }
}
