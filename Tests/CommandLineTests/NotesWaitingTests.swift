import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// Note commands on a store another process is upgrading: they say on stderr that they wait,
/// rather than look frozen, and finish once the lock is released.
@Suite("uncloudnotes notes … while another process migrates the store")
struct NotesWaitingTests {
    @Test("notes add says it waits for the migration in progress, then upgrades the store and adds the note")
    func addWaitsForMigration() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder)
        let running: BuiltExecutable.Running
        do {
            let held = try StoreLock(for: try UnCloudNotesStack(storeURL: store).migrator.realStoreURL)
            running = try BuiltExecutable.Running(["--store", store.path, "notes", "add", "--title", "while waiting", "--body", ""],
                                                  readingStandardError: true)
            #expect(running.nextLine() == "waiting for another uncloudnotes to finish upgrading \(store.path)…")
            withExtendedLifetime(held) {}
        }
        let rest = running.finish()
        #expect(rest.status == 0, "\(rest.lines)")
        let list = try BuiltExecutable.run(["--store", store.path, "notes", "list"])
        #expect(list.exitCode == 0, "\(list.standardError)")
        #expect(list.standardOutput.contains("while waiting"), "\(list.standardOutput)")
    }
}
