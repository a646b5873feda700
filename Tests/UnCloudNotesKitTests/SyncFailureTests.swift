import Foundation
@testable import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// A sync that fails means the data may not be on disk: the migration must fail, not report
/// success, and the store must be as it was. A full or failing disk cannot be made on demand,
/// so the test injects the error into every sync of the task (`DurableFiles.injectedSyncFailure`).
@Suite("A failed sync fails the migration")
struct SyncFailureTests {
    @Test("an EIO from fdatasync or from syncing the folder fails the migration; the store is unchanged")
    func syncErrorFailsMigration() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder)
        let before = try Data(contentsOf: store)
        let migrator = try UnCloudNotesStack(storeURL: store).migrator
        let error = try DurableFiles.$injectedSyncFailure.withValue(EIO) {
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
}
