import Foundation
import GRDB

/// The files one migration of a store works with, all beside the store's real file:
/// - `<store>.migrating`: the working copy every step changes (a copying step writes
///   `<store>.migrating-next` and renames it over the working copy);
/// - `<store>.<version>-backup.partial`: the fresh backup, renamed to `<store>.<version>-backup`
///   only at the end, just before the working copy replaces the store.
/// The store itself is only read until that last rename, so a failed, refused or killed migration
/// leaves it byte for byte as it was.
struct MigrationFiles {
    /// The store's real file (symbolic links resolved).
    let store: URL
    let backup: URL

    var working: URL { sibling(".migrating") }
    var nextWorking: URL { sibling(".migrating-next") }
    var partialBackup: URL { URL(fileURLWithPath: backup.path + ".partial") }

    /// Every file this run may create, SQLite's companion files included: recorded in the lock
    /// file before any is made, so an interrupted run's files are removed by exact name.
    var created: [URL] {
        [working, nextWorking].flatMap { Self.withCompanions($0) } + [partialBackup]
    }

    private func sibling(_ suffix: String) -> URL {
        URL(fileURLWithPath: store.path + suffix)
    }

    /// A database file and the files SQLite keeps beside it.
    static func withCompanions(_ url: URL) -> [URL] {
        [url] + ["-wal", "-shm", "-journal"].map { URL(fileURLWithPath: url.path + $0) }
    }

    /// Copies the store (with its `-wal` or hot `-journal`, if any) to the working copy and folds
    /// those in, so the working copy alone holds everything and the store is never opened for writing.
    func makeWorkingCopy() throws {
        for (original, copy) in zip(Self.withCompanions(store), Self.withCompanions(working)) where original.lastPathComponent.hasSuffix("-shm") == false {
            guard DurableFiles.exists(original) else { continue }
            try DurableFiles.copyPrivately(original, to: copy)
        }
        try Self.fold(working)
        try ExternalDataFolder.prepareWorkingCopy(of: store, working: working, nextWorking: nextWorking)
    }

    /// Writes the backup under its partial name (the working copy before any step: the store's
    /// whole content at its version), synced to disk.
    func writePartialBackup() throws {
        try DurableFiles.copyPrivately(working, to: partialBackup)
        try DurableFiles.sync(partialBackup)
        try ExternalDataFolder(storeAt: partialBackup).replaceContents(withFilesOf: ExternalDataFolder(storeAt: working))
    }

    /// Replaces the working copy with the output of a copying step.
    func promoteNextWorking() throws {
        try Self.fold(nextWorking)
        Self.withCompanions(working).forEach { DurableFiles.removeFile($0) }
        try DurableFiles.renameQuickly(nextWorking, to: working)
        try ExternalDataFolder(storeAt: nextWorking).move(to: ExternalDataFolder(storeAt: working))
    }

    /// Removes every file of this run (after a failure): only the names it creates.
    func removeCreated() {
        created.forEach { DurableFiles.removeFile($0) }
        [working, nextWorking, partialBackup].forEach { ExternalDataFolder(storeAt: $0).removeSupportFolder() }
    }

    /// Checkpoints a database's `-wal` into its main file and closes it, so SQLite removes the
    /// `-wal` and `-shm` (Core Data's consolidation); a hot `-journal` is rolled back on the way.
    static func fold(_ url: URL) throws {
        let companions = withCompanions(url).dropFirst()
        guard companions.contains(where: { DurableFiles.exists($0) }) else { return }
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.writeWithoutTransaction { db in
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
                if try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" {
                    _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                }
            }
            try queue.close()
        } catch {
            throw MigrationError("\(url.path): cannot fold its -wal into the main file (\(ErrorText.oneLine(error)))")
        }
        companions.filter { !$0.path.hasSuffix("-journal") }.forEach { DurableFiles.removeFile($0) }
    }
}
