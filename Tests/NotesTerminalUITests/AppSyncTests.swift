import Foundation
import NotesSync
import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

/// `S` in the app: a sync off the key loop, through the real git, whose notes reach the list as
/// another process's changes do, and whose outcome the status line shows.
@Suite("Syncing from the app")
struct AppSyncTests {
    @Test("S syncs in the background: the laptop's note appears, the status line says synced")
    func syncKey() throws {
        let harness = try AppHarness(version: "v5", notes: [("On the desk", "here", 0)])
        let remote = harness.folder.url.appendingPathComponent("remote.git")
        #expect(try SpawnedProcess.run(["/usr/bin/env", "git", "init", "-q", "--bare", "-b", "main", remote.path]).code == 0)
        let storeURL = harness.folder.url.appendingPathComponent("notes.sqlite")
        _ = try Synchronizer(book: harness.book, mirror: Synchronizer.defaultMirror(for: storeURL), machine: "desk").sync(remote: remote.path)
        let laptopFolder = try TemporaryFolder()
        let laptopURL = laptopFolder.url.appendingPathComponent("laptop.sqlite")
        let laptop = try UnCloudNotesStack(storeURL: laptopURL, versionName: "v5").open()
        try laptop.add(NoteDraft(title: "From the laptop", body: "there"))
        let laptopSync = Synchronizer(book: laptop, mirror: Synchronizer.defaultMirror(for: laptopURL), machine: "laptop")
        _ = try laptopSync.sync(remote: remote.path)

        harness.press(.character("S"))
        #expect(harness.screen(120, 24).contains("syncing…"))
        #expect(harness.syncing.pendingCount == 1)
        harness.press(.character("S"))
        #expect(harness.screen(120, 24).contains("a sync is under way"))
        #expect(harness.syncing.pendingCount == 1)
        harness.syncing.runAll()
        #expect(harness.app.receiveBackgroundWork())
        #expect(harness.catchUp())
        let screen = harness.screen(120, 24)
        #expect(screen.contains("From the laptop"))
        #expect(screen.contains("sent nothing; received 1 added"))
        #expect(screen.contains("synced 20"))
        #expect(try harness.titles().sorted() == ["From the laptop", "On the desk"])
    }

    @Test("S without a remote set up says how to set one up; nothing changes")
    func notSetUp() throws {
        let harness = try AppHarness(version: "v5", notes: [("Alone", "", 0)])
        harness.press(.character("S"))
        harness.syncing.runAll()
        #expect(harness.app.receiveBackgroundWork())
        let screen = harness.screen(200, 24)
        #expect(screen.contains("sync failed: no remote to sync with yet: give one with --remote URL"))
        #expect(try harness.titles() == ["Alone"])
    }
}
