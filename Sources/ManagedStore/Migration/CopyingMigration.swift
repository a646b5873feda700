import Foundation
internal import GRDB

/// The files of a copying migration: opens the source read-only, creates the destination as
/// scratch, plans and runs the `MigrationManager`'s stages, and leaves the new store in the
/// store's journal mode, or, on any failure, removes it and leaves the source as it was.
enum CopyingMigration {
    /// Migrates the store at `sourceURL` into a new store at `destinationURL`, with the policy of
    /// each entity mapping given (a composed chain's, say). `knownMetadata`: the source's, as a
    /// migrator's check read them, used while the source is as it was then.
    /// - Returns: the objects that kept their keys and the attributes copied unchanged, and what
    ///   each entity mapping read, made and took.
    @discardableResult
    static func run(from sourceURL: URL, knownMetadata: StoreMetadataReading? = nil, sourceModel: ManagedObjectModel,
                    to destinationURL: URL, destinationModel: ManagedObjectModel,
                    mappingModel: MappingModel, resolvedPolicies resolved: [EntityMigrationPolicy], options: StoreOptions,
                    progress: ((MigrationProgress) -> Void)?,
                    cancellation: MigrationCancellation?) throws -> (kept: KeptObjects, statistics: [MigrationStatistics.EntityMapping]) {
        try checkEntities(of: mappingModel, source: sourceModel, destination: destinationModel)
        guard !FileManager.default.fileExists(atPath: destinationURL.path) else {
            throw MigrationError.file(path: destinationURL.path, problem: .destinationExists)
        }
        // A migration keeps the source's history as it is (copied with the unowned tables) and
        // records none of its own.
        var options = options
        options.leavesHistoryAsIs = true
        var readOnly = options
        readOnly.isReadOnly = true
        let sourceStore = try PersistentStore.open(at: sourceURL, model: sourceModel, options: readOnly, knownMetadata: knownMetadata)
        var destinationStore: PersistentStore?
        let destinationFolderExisted = ExternalDataFolder(storeAt: StorePath.real(destinationURL)).supportFolderExists
        do {
            let destination = try PersistentStore.create(at: destinationURL, model: destinationModel,
                                                         storeUUID: sourceStore.metadata.storeUUID, options: options)
            destinationStore = destination
            try useAsScratch(destination, sizedFor: sourceURL)
            let plan = try CopyPlan(mapping: mappingModel, source: sourceStore.schema, destination: destination.schema, policies: resolved)
            let manager = MigrationManager(mappingModel: mappingModel, sourceStore: sourceStore, destinationStore: destination,
                                           policies: resolved, plan: plan, progress: progress, cancellation: cancellation)
            let kept = try manager.run(sourceURL: sourceURL)
            try destination.database.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = \(options.journalMode.rawValue)")
            }
            try destination.close()
            try sourceStore.close()
            return (kept, manager.tally.mappings)
        } catch {
            // The migration has failed already and its error is the one to report: the source was
            // opened read-only and the destination's files are removed next, so a failed close
            // loses nothing.
            try? destinationStore?.close()
            try? sourceStore.close()
            StoreFiles(url: destinationURL).remove()
            ExternalDataFolder.removeAfterFailedCopy(to: destinationURL, existedBefore: destinationFolderExisted)
            // A store error names its file and what differs in it: callers react to it as it is.
            if error is MigrationError || error is StoreError { throw error }
            // SQLite's refusals (a duplicate of a unique value) as the engine's own cause, its
            // code kept: the database library stays inside the engine.
            let cause = error is DatabaseError ? FailureCause(error) : error
            throw MigrationError.failed(from: sourceModel.name, to: destinationModel.name, cause: cause)
        }
    }

    /// The new file is scratch until the migration is complete (a failure removes it), so it is
    /// written without a journal or syncs, every byte once, with a page cache sized for the work.
    /// The caller syncs it once before relying on it; it leaves in the store's journal mode.
    private static func useAsScratch(_ store: PersistentStore, sizedFor sourceURL: URL) throws {
        // The size only tunes the page cache: unreadable, it gets the smallest one, and the
        // source's real read errors come from opening it.
        let sourceBytes = (try? FileManager.default.attributesOfItem(atPath: sourceURL.path)[.size] as? Int) ?? 0
        let cacheKiB = min(max(sourceBytes / 1024, 2048), scratchCacheLimitKiB)
        try store.database.writeWithoutTransaction { db in
            _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
        }
    }

    /// The largest page cache of a new file: rows go in in key order, so a bigger cache bought no
    /// time in the benchmark (16 MB cost 27 MB of peak memory at 10,000 notes with big images).
    static let scratchCacheLimitKiB = 4 * 1024

    private static func checkEntities(of mapping: MappingModel, source: ManagedObjectModel, destination: ManagedObjectModel) throws {
        for entityMapping in mapping.entityMappings {
            if let name = entityMapping.sourceEntityName, source.entity(named: name) == nil {
                throw MigrationError.mapping(.unknownSourceEntity(mapping: entityMapping.name, entity: name, model: source.name))
            }
            if let name = entityMapping.destinationEntityName, destination.entity(named: name) == nil {
                throw MigrationError.mapping(.unknownDestinationEntity(mapping: entityMapping.name, entity: name, model: destination.name))
            }
        }
    }
}
