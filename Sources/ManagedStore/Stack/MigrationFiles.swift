import Foundation
internal import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files one migration of a store works with, all beside the store's real file:
/// - `<store>.migrating`: the working copy: the new file a copying step writes (as scratch:
///   `<store>.migrating-next`, renamed over the working copy), or, when an in-place step comes
///   before any copying one, a copy of the store for it to change;
/// - `<store>.<version>-backup.partial`: the fresh backup, renamed to `<store>.<version>-backup`
///   once complete. When the store is only read, it is a hard link to the store: the old file
///   itself becomes the backup when the working copy replaces it.
/// The store is only read until that last rename (a plan of one in-place step excepted, which
/// changes it in one transaction after the backup is made), so a failed, refused or killed
/// migration leaves it as it was.
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
        [working, nextWorking, partialBackup].flatMap { Self.withCompanions($0) }
    }

    private func sibling(_ suffix: String) -> URL {
        URL(fileURLWithPath: store.path + suffix)
    }

    /// A database file and the files SQLite keeps beside it.
    static func withCompanions(_ url: URL) -> [URL] {
        [url] + ["-wal", "-shm", "-journal"].map { URL(fileURLWithPath: url.path + $0) }
    }

    /// Copies the store to the working copy, with links to its external files: for in-place steps
    /// that come before any copying step, so that the store itself is never written.
    func makeWorkingCopy() throws {
        try Self.copyFolded(store, to: working)
        try ExternalDataFolder(storeAt: working).replaceContents(withFilesOf: ExternalDataFolder(storeAt: store))
    }

    /// Copies a store with its `-wal` or hot `-journal`, if any, and folds those into the copy,
    /// so the copy alone holds everything while the original is only read.
    /// - Returns: how the main file was duplicated.
    @discardableResult
    static func copyFolded(_ source: URL, to copy: URL) throws -> FileDuplication {
        var method = FileDuplication.copy
        for (original, duplicate) in zip(withCompanions(source), withCompanions(copy)) where !original.path.hasSuffix("-shm") {
            guard DurableFiles.exists(original) else { continue }
            let made = try DurableFiles.copyPrivately(original, to: duplicate)
            if original == source { method = made }
        }
        try fold(copy)
        return method
    }

    /// Whether the store's main file alone holds it (no `-wal` or `-journal` beside it).
    private var storeIsWhole: Bool {
        Self.withCompanions(store).dropFirst().filter { !$0.path.hasSuffix("-shm") }.allSatisfy { !DurableFiles.exists($0) }
    }

    /// Makes the backup of the store, synced, under its final name. A hard link when the store's
    /// main file holds all of it, the store is a private file (0600) and the file system allows
    /// it: the store is only read, so the link keeps its old bytes once the working copy replaces
    /// it. Otherwise a private copy (a clone where the file system can), its `-wal` folded in.
    /// - Returns: how the backup was made.
    @discardableResult
    func writeBackup(linking: Bool) throws -> FileDuplication {
        let linked = linking && storeIsWhole && Self.isPrivate(store) && DurableFiles.link(store, to: partialBackup)
        var method = FileDuplication.hardLink
        if !linked {
            method = try Self.copyFolded(store, to: partialBackup)
            try DurableFiles.sync(partialBackup)
        }
        // The backup's own support folder holds links to the store's external files, if it has any.
        try ExternalDataFolder(storeAt: partialBackup).replaceContents(withFilesOf: ExternalDataFolder(storeAt: store))
        try DurableFiles.rename(partialBackup, to: backup)
        // rename(2) does nothing when both names are links to one file: a run killed after linking
        // its backup leaves the backup a link to the store, and the next run's link is that file too.
        if DurableFiles.exists(partialBackup) { DurableFiles.removeFile(partialBackup) }
        try ExternalDataFolder(storeAt: partialBackup).move(to: ExternalDataFolder(storeAt: backup))
        return method
    }

    /// Removes this run's backup and its external files' folder (after a failure before the store
    /// was replaced: the store itself is then what the backup held).
    func removeBackup() {
        DurableFiles.removeFile(backup)
        ExternalDataFolder(storeAt: backup).removeSupportFolder()
    }

    /// A link shares the store's mode: only a store that is 0600 already gives a 0600 backup.
    private static func isPrivate(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && status.st_mode & 0o7777 == 0o600
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
            throw MigrationError.file(path: url.path, problem: .cannotFoldWAL(cause: error))
        }
        companions.filter { !$0.path.hasSuffix("-journal") }.forEach { DurableFiles.removeFile($0) }
    }
}
