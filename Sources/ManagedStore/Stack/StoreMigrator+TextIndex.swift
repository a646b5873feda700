import Foundation

extension StoreMigrator {
    /// The migration's last stage, once the new store replaced the old one: the text index beside
    /// it (`textIndex`) is built, or only checked when the migration carried it, reported as
    /// `.indexingText` and `.textIndexed` so a big store's wait is seen.
    ///
    /// The store is migrated by then and the index is only derived from it, so a failure is a
    /// warning (the first search builds the index instead). The store is read through a read-only
    /// connection that creates no `-wal` or `-shm` beside it (`StoreFiles.readOnlyQueue`), so a
    /// kill here leaves the store's files as the migration left them, and an index the next
    /// search checks and completes. That connection assumes nobody writes the store meanwhile:
    /// should another process have written it (its stamp moved), the index is marked to be rebuilt
    /// rather than trusted, and the first search builds it.
    func buildTextIndex(observer: (MigrationEvent) -> Void) {
        guard let textIndex, textIndex.applies(to: target) else { return }
        let start = ContinuousClock.now
        observer(.indexingText(fraction: 0))
        let indexURL = TextSearchIndex.url(besideStoreAt: storeURL)
        do {
            let before = StoreFileStamp(of: storeURL)
            let folded = try buildTextIndex(textIndex) { observer(.indexingText(fraction: $0)) }
            guard before != nil, StoreFileStamp(of: storeURL) == before else {
                do {
                    try TextSearchIndex.invalidate(at: indexURL)
                    observer(.warning("the store changed while its search index was built, so the first search builds it"))
                } catch {
                    // The index keeps its identity: the first search checks it against the store, as after another program's write.
                    observer(.warning("the store changed while its search index was built, and the index could not be marked for "
                        + "rebuilding, so the first search checks it against the store: " + ErrorText.oneLine(error)))
                }
                return
            }
            observer(.textIndexed(objects: folded, seconds: (ContinuousClock.now - start).inSeconds))
        } catch {
            observer(.warning("the store is migrated, but its search index was not built, so the first search builds it: "
                + ErrorText.oneLine(error)))
        }
    }

    /// Builds the index from the store read only. - Returns: how many entries were folded.
    private func buildTextIndex(_ configuration: TextIndexConfiguration, progress: (Double) -> Void) throws -> Int {
        var reading = options
        reading.isReadOnly = true
        let store = try PersistentStore.open(at: storeURL, model: target, options: reading)
        // Only read: closing cannot lose anything.
        defer { try? store.close() }
        return try TextSearchIndex(beside: ManagedObjectContext(store: store), configuration: configuration).build(progress: progress)
    }
}
