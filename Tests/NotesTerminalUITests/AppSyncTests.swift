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
    /// A v5 app on the desk's store, synced once with a new bare remote.
    private func syncedDesk() throws -> (AppHarness, remote: URL, storeURL: URL) {
        let harness = try AppHarness(version: "v5", notes: [("On the desk", "here", 0)])
        let remote = harness.folder.url.appendingPathComponent("remote.git")
        #expect(try SpawnedProcess.run(["/usr/bin/env", "git", "init", "-q", "--bare", "-b", "main", remote.path]).code == 0)
        let storeURL = harness.folder.url.appendingPathComponent("notes.sqlite")
        _ = try Synchronizer(book: harness.book, mirror: Synchronizer.defaultMirror(for: storeURL), machine: "desk").sync(remote: remote.path)
        return (harness, remote, storeURL)
    }

    @Test("S syncs in the background: the laptop's note appears, the status line says synced")
    func syncKey() throws {
        let (harness, remote, _) = try syncedDesk()
        let laptopFolder = try TemporaryFolder()
        let laptopURL = laptopFolder.url.appendingPathComponent("laptop.sqlite")
        let laptop = try UnCloudNotesStack(storeURL: laptopURL, versionName: "v5").open()
        try laptop.add(NoteDraft(title: "From the laptop", body: "there"))
        let laptopSync = Synchronizer(book: laptop, mirror: Synchronizer.defaultMirror(for: laptopURL), machine: "laptop")
        _ = try laptopSync.sync(remote: remote.path)
        harness.syncing.runAll() // the status read at launch

        harness.press(.character("S"))
        #expect(harness.screen(120, 24).contains("syncing…"))
        #expect(harness.syncing.pendingCount == 1)
        harness.press(.character("S"))
        #expect(harness.screen(120, 24).contains("a sync is under way"))
        #expect(harness.syncing.pendingCount == 1)
        harness.syncing.runAll()
        #expect(harness.takeBackgroundWork())
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
        #expect(harness.takeBackgroundWork())
        let screen = harness.screen(200, 24)
        #expect(screen.contains("sync failed: no remote to sync with yet: give one with --remote URL"))
        #expect(try harness.titles() == ["Alone"])
    }

    @Test("the status line says when the store last synced and whether changes wait: the app's own, another process's, none after S")
    func statusLine() throws {
        let (harness, _, storeURL) = try syncedDesk()
        func statusLine() -> String {
            harness.takeBackgroundWork()
            return harness.screen(120, 24).split(separator: "\n").first { $0.contains("1 note") || $0.contains("2 notes") || $0.contains("3 notes") }
                .map(String.init) ?? ""
        }

        #expect(!statusLine().contains("synced"))
        harness.syncing.runAll()
        #expect(statusLine().contains(" synced 20"))
        #expect(!statusLine().contains("changes"))

        _ = harness.runner.perform([.save(NoteDraft(title: "Typed here", body: ""), over: nil)], on: harness.app)
        #expect(statusLine().contains("synced 20") && statusLine().contains(", changes waiting"))

        harness.press(.character("S"))
        harness.syncing.runAll()
        #expect(!statusLine().contains("changes waiting"))

        let other = try UnCloudNotesStack(storeURL: storeURL, versionName: "v5").open()
        try other.add(NoteDraft(title: "From a script", body: ""))
        #expect(harness.catchUp())
        #expect(!statusLine().contains("changes waiting"))
        harness.syncing.runAll()
        #expect(statusLine().contains(", changes waiting"))
    }

    @Test("a store that was never synced says nothing of sync")
    func neverSynced() throws {
        let harness = try AppHarness(version: "v5", notes: [("Alone", "", 0)])
        harness.syncing.runAll()
        harness.takeBackgroundWork()
        _ = harness.runner.perform([.save(NoteDraft(title: "Another", body: ""), over: nil)], on: harness.app)
        let screen = harness.screen(120, 24)
        #expect(!screen.contains("sync"))
        #expect(screen.contains("2 notes"))
    }
}
