import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// The stack's files during a migration: the new file is scratch (no journal beside it), the
/// store is only read and becomes the backup through a hard link, an in-place step alone changes
/// the store itself after a real backup.
@Suite("Scratch files and hard-linked backups")
struct ScratchAndBackupTests {
    private func inode(_ url: URL) throws -> Int {
        try #require((try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.intValue)
    }

    private func mode(_ url: URL) throws -> Int {
        try #require((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    /// A fixture store of `version` with the given mode, its bytes and its inode.
    private func store(_ version: String, mode: Int, in folder: TemporaryFolder) throws -> (url: URL, bytes: Data, inode: Int) {
        let url = try ProjectFixtures.copyStore(version, into: folder)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return (url, try Data(contentsOf: url), try inode(url))
    }

    /// Migrates the store to the current version, noting the backup and the files beside the
    /// store at each progress event of a copying step.
    private func migrate(_ url: URL) throws -> (backup: URL, filesWhileCopying: Set<String>) {
        var backup: URL?
        var seen: Set<String> = []
        var copying = false
        try UnCloudNotesStack(storeURL: url).migrator.migrateIfNeeded { event in
            switch event {
            case .backupCreated(let path, _): backup = URL(fileURLWithPath: path)
            case .stepStarted(_, let step):
                if case .inPlace = step.kind { copying = false } else { copying = true }
            case .progress where copying:
                seen.formUnion((try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? [])
            default: break
            }
        }
        return (try #require(backup), seen)
    }

    @Test("v2 -> v4: the store is only read and becomes the backup (a hard link); the new file has no journal while written")
    func storeBecomesTheBackup() throws {
        let folder = try TemporaryFolder()
        let (url, before, original) = try store("v2", mode: 0o600, in: folder)
        let (backup, seen) = try migrate(url)
        #expect(try inode(backup) == original)
        #expect(try Data(contentsOf: backup) == before)
        #expect(try mode(backup) == 0o600)
        #expect(try inode(url) != original)
        let name = url.lastPathComponent
        #expect(seen.contains(name + ".migrating-next"), "\(seen)")
        #expect(seen.isDisjoint(with: [name + ".migrating-next-wal", name + ".migrating-next-journal", name + "-wal", name + "-journal"]), "\(seen)")
    }

    @Test("a backup already linked to the store (a run killed after making it) is kept, and no .partial is left")
    func backupAlreadyLinked() throws {
        let folder = try TemporaryFolder()
        let (url, before, original) = try store("v2", mode: 0o600, in: folder)
        let earlier = URL(fileURLWithPath: url.path + ".v2-backup")
        try FileManager.default.linkItem(at: url, to: earlier)
        let (backup, _) = try migrate(url)
        #expect(backup == earlier)
        #expect(try inode(backup) == original)
        #expect(try Data(contentsOf: backup) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!left.contains { $0.hasSuffix(".partial") }, "\(left)")
    }

    @Test("a copying migration that fails after making its backup (the final rename refused) leaves no backup")
    func failureAfterBackupLeavesNone() throws {
        let folder = try TemporaryFolder()
        let (url, before, _) = try store("v2", mode: 0o600, in: folder)
        let aside = folder.url.appendingPathComponent("aside.sqlite")
        // Once the backup is made, a folder takes the store's name, so renaming the new file over it fails.
        let error = try #require(throws: MigrationError.self) {
            try UnCloudNotesStack(storeURL: url).migrator.migrateIfNeeded { event in
                guard case .backupCreated = event else { return }
                try? FileManager.default.moveItem(at: url, to: aside)
                try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            }
        }
        guard case .fileSystem(let operation, let code) = error else { Issue.record("\(error)"); return }
        #expect(operation.hasPrefix("cannot rename") && code == EISDIR, "\(error)")
        try FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: aside, to: url)
        #expect(try Data(contentsOf: url) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0 != url.lastPathComponent }
        #expect(left.allSatisfy { $0.hasSuffix(".lock") }, "\(left)")
    }

    /// A v2 store whose last change is still in its `-wal` (another process wrote it and is still
    /// open): the files are copied as they are, `-wal` included.
    private func storeWithWAL(in folder: TemporaryFolder) throws -> URL {
        let (original, _, _) = try store("v2", mode: 0o600, in: folder)
        let writer = try DatabaseQueue(path: original.path)
        try writer.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "UPDATE ZNOTE SET ZTITLE = ZTITLE || ' (in the wal)'")
        }
        let url = folder.url.appendingPathComponent("wal.sqlite")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: original.path + suffix, toPath: url.path + suffix)
        }
        try writer.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + "-wal")).count > 0)
        return url
    }

    @Test("a store with a -wal: a failed migration leaves its files byte for byte; a finished one keeps what the -wal held")
    func storeWithWALFile() throws {
        let folder = try TemporaryFolder()
        let url = try storeWithWAL(in: folder)
        let files = ["", "-wal"].map { URL(fileURLWithPath: url.path + $0) }
        let before = try files.map { try Data(contentsOf: $0) }
        let cancellation = MigrationCancellation()
        #expect(throws: MigrationError.self) {
            try UnCloudNotesStack(storeURL: url).migrator.migrateIfNeeded(observer: { event in
                if case .stepFinished = event { cancellation.cancel() }
            }, cancellation: cancellation)
        }
        #expect(try files.map { try Data(contentsOf: $0) } == before)

        let (backup, _) = try migrate(url)
        let titles = try NoteRecord.read(url, version: UnCloudNotesStack(storeURL: url).version).map(\.title)
        #expect(!titles.isEmpty && titles.allSatisfy { $0.hasSuffix(" (in the wal)") }, "\(titles)")
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        let v2 = try #require(UnCloudNotesModel.version(named: "v2", in: UnCloudNotesModel.load()))
        let backupTitles = try NoteRecord.read(backup, version: v2)
        #expect(backupTitles.allSatisfy { $0.title.hasSuffix(" (in the wal)") })
        #expect(!FileManager.default.fileExists(atPath: backup.path + "-wal"))
    }

    @Test("a store that is not 0600 is backed up as a private copy, never a link sharing its mode")
    func sharedModeStoreIsCopied() throws {
        let folder = try TemporaryFolder()
        let (url, before, original) = try store("v2", mode: 0o640, in: folder)
        let (backup, _) = try migrate(url)
        #expect(try inode(backup) != original)
        #expect(try Data(contentsOf: backup) == before)
        #expect(try mode(backup) == 0o600 && mode(url) == 0o640)
    }

    @Test("v1 -> v2 alone changes the store itself in one transaction, after a real backup; no working copy")
    func inPlaceStepChangesTheStore() throws {
        let folder = try TemporaryFolder()
        let (url, before, original) = try store("v1", mode: 0o600, in: folder)
        var backup: URL?
        var workingCopyMade = false
        let stack = try UnCloudNotesStack(storeURL: url, versionName: "v2")
        try stack.migrator.migrateIfNeeded { event in
            if case .backupCreated(let path, _) = event { backup = URL(fileURLWithPath: path) }
            if case .stepFinished = event { workingCopyMade = FileManager.default.fileExists(atPath: url.path + ".migrating") }
        }
        #expect(!workingCopyMade)
        #expect(try inode(url) == original)
        let saved = try #require(backup)
        #expect(try inode(saved) != original)
        #expect(try Data(contentsOf: saved) == before)
        #expect(try stack.migrator.state().isCurrent)
    }
}

extension ScratchAndBackupTests {
    @Test("v1 -> v2 alone, failing after its backup was made: the store unchanged, no backup left")
    func failedInPlaceStepLeavesNoBackup() throws {
        let folder = try TemporaryFolder()
        let (url, before, _) = try store("v1", mode: 0o600, in: folder)
        let cancellation = MigrationCancellation()
        let error = try #require(throws: MigrationError.self) {
            try UnCloudNotesStack(storeURL: url, versionName: "v2").migrator.migrateIfNeeded(observer: { event in
                if case .backupCreated = event { cancellation.cancel() }
            }, cancellation: cancellation)
        }
        guard case .cancelled = error else { Issue.record("not cancelled: \(error)"); return }
        #expect(try Data(contentsOf: url) == before)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        #expect(left == [url.lastPathComponent, url.lastPathComponent + ".lock"], "\(left)")
    }
}

extension ScratchAndBackupTests {
    @Test("v1 -> v2 alone on a file system that clones files (XFS): the backup is a clone holding the old bytes, and it says so",
          .enabled(if: CloneCapableFolder.isAvailable, "skipped: a clone-capable file system needs root, mkfs.xfs (xfsprogs) and loop devices"))
    func inPlaceBackupIsAClone() throws {
        let xfs = try CloneCapableFolder()
        let temporary = try TemporaryFolder()
        let (original, before, _) = try store("v1", mode: 0o600, in: temporary)
        let url = xfs.url.appendingPathComponent(original.lastPathComponent)
        try FileManager.default.copyItem(at: original, to: url)
        var backup: (path: String, method: FileDuplication)?
        let stack = try UnCloudNotesStack(storeURL: url, versionName: "v2")
        try stack.migrator.migrateIfNeeded { event in
            if case .backupCreated(let path, let method) = event { backup = (path, method) }
        }
        let made = try #require(backup)
        #expect(made.method == .clone)
        #expect(try Data(contentsOf: URL(fileURLWithPath: made.path)) == before)
        #expect(try mode(URL(fileURLWithPath: made.path)) == 0o600)
        #expect(try stack.migrator.state().isCurrent)
    }

    @Test("v1 -> v2 alone where files cannot be cloned: the backup is a copy, and it says so")
    func inPlaceBackupIsACopyElsewhere() throws {
        let folder = try TemporaryFolder()
        let (url, _, _) = try store("v1", mode: 0o600, in: folder)
        var method: FileDuplication?
        try UnCloudNotesStack(storeURL: url, versionName: "v2").migrator.migrateIfNeeded { event in
            if case .backupCreated(_, let made) = event { method = made }
        }
        // The temporary folder is on the machine's root file system (ext4 here, or tmpfs): no clones.
        #expect(method == .copy)
    }
}

private extension StoreMigrator.State {
    var isCurrent: Bool {
        if case .current = self { true } else { false }
    }
}
