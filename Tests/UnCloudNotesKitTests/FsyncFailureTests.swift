import Foundation
@testable import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// An fsync that fails means the data may not be on disk: the migration must fail, not report
/// success, and the store must be as it was. A full or failing disk cannot be made on demand,
/// so the tests inject the error into the task's syncs or `chown`s (`DurableFiles.injectedFailure`).
@Suite("A failed fsync fails the migration")
struct FsyncFailureTests {
    @Test("an EIO from fdatasync or from syncing the folder fails the migration; the store is unchanged")
    func syncErrorFailsMigration() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder)
        let before = try Data(contentsOf: store)
        let migrator = try UnCloudNotesStack(storeURL: store).migrator
        let error = try DurableFiles.$injectedFailure.withValue(InjectedFailure(EIO, calls: [.sync])) {
            try #require(throws: MigrationError.self) { try migrator.migrateIfNeeded() }
        }
        guard case .fileSystem(let operation, let code) = error else { Issue.record("not a system call failure: \(error)"); return }
        #expect(operation.contains("cannot sync"), "\(operation)")
        #expect(code == EIO)
        #expect(error.description.contains(String(cString: strerror(EIO))), "\(error)")
        #expect(try Data(contentsOf: store) == before)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        #expect(left == [store.lastPathComponent, store.lastPathComponent + ".lock"], "\(left)")

        // The same migration without the failure succeeds: the error came from the sync alone.
        #expect(try migrator.migrateIfNeeded() != nil)
    }

    @Test("a failed sync of the folder after the store was replaced is a warning: the store is migrated, not called failed")
    func syncFailureAfterRenameWarns() throws {
        // A first run counts the syncs; the second fails only the last, the folder's after the rename.
        let counting = InjectedFailure(EIO, calls: [.sync], passing: .max)
        let first = try TemporaryFolder()
        let counted = try ProjectFixtures.copyStore("v3", into: first)
        _ = try DurableFiles.$injectedFailure.withValue(counting) { try UnCloudNotesStack(storeURL: counted).migrator.migrateIfNeeded() }
        #expect(counting.callsMade > 1)

        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder)
        var events: [MigrationEvent] = []
        let migrated = try DurableFiles.$injectedFailure.withValue(InjectedFailure(EIO, calls: [.sync], passing: counting.callsMade - 1)) {
            try UnCloudNotesStack(storeURL: store).migrator.migrateIfNeeded { events.append($0) }
        }
        #expect(migrated != nil)
        let warnings = events.compactMap { event -> String? in if case .warning(let text) = event { text } else { nil } }
        #expect(warnings.count == 1 && warnings[0].contains("cannot sync the folder"), "\(warnings)")
        #expect(events.contains { if case .finished = $0 { true } else { false } })
        // Up to date: nothing left to migrate.
        #expect(try UnCloudNotesStack(storeURL: store).migrator.migrateIfNeeded() == nil)
    }

    @Test("a chown refused while handing the backup to the store's owner (a root run) fails the migration; the store is unchanged, no backup left",
          .enabled(if: geteuid() == 0, "only root hands files to another owner: run the tests as root (make test in CI does)"))
    func refusedOwnerFailsMigration() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder)
        #expect(chown(store.path, 4321, 4321) == 0)
        let before = try Data(contentsOf: store)
        let error = try DurableFiles.$injectedFailure.withValue(InjectedFailure(EPERM, calls: [.changeOwner])) {
            try #require(throws: MigrationError.self) { try UnCloudNotesStack(storeURL: store).migrator.migrateIfNeeded() }
        }
        guard case .file(let path, .cannotSetOwner(let code)) = error else { Issue.record("not a refused owner: \(error)"); return }
        #expect(code == EPERM, "\(error)")
        #expect(path.hasPrefix(store.path), "\(path)")
        #expect(try Data(contentsOf: store) == before)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        #expect(left == [store.lastPathComponent, store.lastPathComponent + ".lock"], "\(left)")
    }
}
