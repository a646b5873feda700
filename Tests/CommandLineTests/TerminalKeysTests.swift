import Foundation
import Testing
import TestSupport
import UnCloudNotesKit

/// Keys a person at a terminal expects: Ctrl-C to cancel an upgrade, Ctrl-Z to suspend, readline's
/// keys in text fields; and a question before a typed store path becomes a new store. An extension
/// of `TerminalAppTests` so all tmux tests run one at a time.
extension TerminalAppTests {
    /// How many notes make an upgrade take seconds (about 4 s at 1.5 million): long enough for a
    /// person, and this test, to press Ctrl-C while it runs.
    static let slowUpgradeNotes = 1_500_000

    /// The names in a folder, sorted.
    private func names(in folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test("Ctrl-C on the migration screen asks, then cancels: the store is left byte for byte, exit 130")
    func cancelUpgradeScreen() throws {
        let folder = try TemporaryFolder()
        let store = try BigV1Store.make(in: folder, notes: Self.slowUpgradeNotes)
        let before = try Data(contentsOf: store)
        let files = try names(in: folder)
        let tmux = try launch(store: store, width: 80, height: 24)
        try tmux.waitFor("Ctrl-C cancel the upgrade", timeout: 30)
        try tmux.press("C-c")
        // The upgrade waits while it asks: the answer cannot come too late.
        try tmux.waitFor("Cancel the upgrade? y/n")
        try tmux.press("y")
        let end = try tmux.waitFor("The upgrade was cancelled", timeout: 60)
        #expect(end.contains("Your store is unchanged"))
        try tmux.press("Space")
        try tmux.waitFor("EXITED:130")
        #expect(try Data(contentsOf: store) == before, "the store is byte for byte as it was")
        // The lock file (empty, 0600) is the only file added: it is how two programs agree on who upgrades.
        #expect(try names(in: folder) == (files + ["big.sqlite.lock"]).sorted())
    }

    /// `store migrate` on a store in `folder` whose upgrade takes seconds, in tmux, interrupted by
    /// Ctrl-C once its first step runs; `input` redirects its standard input (a terminal without it).
    private func interruptedStoreMigrate(in folder: TemporaryFolder, input: String = "") throws -> (store: URL, before: Data, tmux: TmuxSession) {
        let store = try BigV1Store.make(in: folder, notes: Self.slowUpgradeNotes)
        let before = try Data(contentsOf: store)
        let command = "'\(BuiltExecutable.url.path)' store migrate '\(store.path)' \(input); echo EXITED:$?; sleep 60"
        let tmux = try TmuxSession(command: command, width: 200, height: 30, environment: ["LANG": "C.UTF-8"])
        try tmux.waitFor("step 1:", timeout: 30)
        try tmux.press("C-c")
        return (store, before, tmux)
    }

    @Test("store migrate at a terminal: Ctrl-C asks, y cancels with one line and exit 130, the store unchanged")
    func cancelStoreMigrate() throws {
        let folder = try TemporaryFolder()
        let (store, before, tmux) = try interruptedStoreMigrate(in: folder)
        try tmux.waitFor("Cancel the upgrade? y/n")
        try tmux.press("y")
        let end = try tmux.waitFor("EXITED:130", timeout: 60)
        let messages = end.split(separator: "\n").filter { $0.hasPrefix("uncloudnotes: ") }
        #expect(messages == ["uncloudnotes: the upgrade was cancelled; the store is unchanged: \(store.path)"])
        #expect(try Data(contentsOf: store) == before)
        #expect(try names(in: folder) == ["big.sqlite", "big.sqlite.lock"], "no backup, no working files left")
    }

    @Test("store migrate without a terminal on stdin: SIGINT cancels at once, the store unchanged")
    func interruptStoreMigrate() throws {
        let folder = try TemporaryFolder()
        let (store, before, tmux) = try interruptedStoreMigrate(in: folder, input: "< /dev/null")
        let end = try tmux.waitFor("EXITED:130", timeout: 60)
        #expect(!end.contains("Cancel the upgrade?"))
        #expect(end.contains("uncloudnotes: the upgrade was cancelled; the store is unchanged: \(store.path)"))
        #expect(try Data(contentsOf: store) == before)
        #expect(try names(in: folder) == ["big.sqlite", "big.sqlite.lock"], "no backup, no working files left")
    }

    @Test("Ctrl-Z suspends the app to the shell with the terminal restored; fg brings it back, redrawn")
    func suspendAndResume() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        try UnCloudNotesStack(storeURL: store).open().add(NoteDraft(title: "Suspended note", body: "still here"))
        // An interactive shell with job control, and a prompt to recognise.
        let profile = try folder.write("PS1='SHELL> '\n", to: "bashrc")
        let tmux = try TmuxSession(command: "bash --noprofile --rcfile '\(profile.path)' -i", width: 100, height: 30,
                                   environment: ["LANG": "C.UTF-8"])
        try tmux.waitFor("SHELL>")
        try tmux.type("'\(BuiltExecutable.url.path)' --store '\(store.path)'")
        try tmux.press("Enter")
        try tmux.waitFor("›Suspended note")
        try tmux.press("C-z")
        try tmux.waitFor("Stopped")
        try tmux.type("echo MODE:$(stty -a | grep -o -- '-\\?icanon' | head -1)")
        try tmux.press("Enter")
        try tmux.waitFor("MODE:icanon")
        try tmux.type("fg")
        try tmux.press("Enter")
        // Redrawn whole: the shell's lines are gone and the list is back.
        try tmux.waitUntil("the app redrawn") { !$0.contains("MODE:icanon") && $0.contains("›Suspended note") && $0.contains("q quit") }
        try tmux.press("q")
        try tmux.waitUntil("the shell back after quitting") { $0.contains("SHELL>") && !$0.contains("q quit") }
    }

    @Test("text fields take readline's keys: Ctrl-A, Ctrl-E, Ctrl-W in the title, Ctrl-U in the body and the search")
    func readlineKeys() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let tmux = try launch(store: store)
        try tmux.waitFor("No notes yet")
        try tmux.press("n")
        try tmux.waitFor("New note")
        try tmux.type("Weekly list draft")
        try tmux.press("C-w", "C-a")
        try tmux.type("My ")
        try tmux.press("C-e")
        try tmux.type("now")
        try tmux.press("Tab", "Tab")
        try tmux.type("typed by mistake")
        try tmux.press("C-u")
        try tmux.type("milk")
        try tmux.press("C-s")
        try tmux.waitFor("note created")
        try tmux.press("/")
        try tmux.type("nothing like it")
        try tmux.waitFor("No note matches")
        try tmux.press("C-u")
        try tmux.type("weekly")
        try tmux.waitFor("(1 found)")
        try tmux.press("Escape")
        try quit(tmux)
        let book = try UnCloudNotesStack(storeURL: store).open()
        let note = try book.snapshot(of: try #require(try book.noteIDs().first))
        #expect(note.title == "My Weekly list now" && note.body == "milk")
    }

    @Test("a --store path that does not exist: the app asks first, and n quits having created nothing; the default store is created silently")
    func asksBeforeCreating() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("typo/notes.sqlite")
        let asked = try TmuxSession(command: "'\(BuiltExecutable.url.path)' --store '\(store.path)'; echo EXITED:$?; sleep 60",
                                    width: 200, environment: ["LANG": "C.UTF-8"])
        try asked.waitFor("Create a new store at \(store.path)? y/n")
        try asked.press("n")
        try asked.waitFor("EXITED:0")
        #expect(try names(in: folder).isEmpty, "no folder, store or lock")

        let data = folder.url.appendingPathComponent("data")
        let silent = try TmuxSession(command: "'\(BuiltExecutable.url.path)'; echo EXITED:$?; sleep 60",
                                     environment: ["LANG": "C.UTF-8", "XDG_DATA_HOME": data.path])
        try silent.waitFor("No notes yet: press n to write one.")
        try silent.press("q")
        try silent.waitFor("EXITED:0")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("uncloudnotes/UnCloudNotesDataModel.sqlite").path))
    }

    @Test("walkthrough --interactive: the app shows a banner naming the step it is in; q goes on")
    func walkthroughBanner() throws {
        let folder = try TemporaryFolder()
        let dir = folder.url.appendingPathComponent("chapter").path
        let command = "'\(BuiltExecutable.url.path)' walkthrough --interactive --step 2 --dir '\(dir)'; echo EXITED:$?; sleep 60"
        let tmux = try TmuxSession(command: command, width: 120, height: 30, environment: ["LANG": "C.UTF-8"])
        let first = try tmux.waitFor("Walkthrough step 1 of 6: v1: the first app makes notes")
        #expect(first.contains("the v1 app: add notes, q goes on") && first.contains("First note"))
        try tmux.press("q")
        try tmux.waitFor("Walkthrough step 2 of 6: v2: a lightweight migration")
        try tmux.press("q")
        try tmux.waitFor("EXITED:0")
    }
}
