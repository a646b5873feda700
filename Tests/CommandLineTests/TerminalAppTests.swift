import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("The full-screen app, driven in tmux", .serialized)
struct TerminalAppTests {
    /// Runs the app on a store, then prints how it exited and whether the terminal is back in
    /// canonical mode (restored), and waits so the screen can be read. A store that does not exist
    /// yet is created by answering the app's question.
    /// - Parameter variables: shell assignments put before the command (`TERM=foot`), for what the
    ///   session's environment cannot change.
    func launch(store: URL, arguments: String = "", editor: String? = nil, variables: String = "",
                width: Int = 100, height: Int = 30) throws -> TmuxSession {
        let command = "\(variables) '\(BuiltExecutable.url.path)' --store '\(store.path)' \(arguments); echo \"EXITED:$?\"; echo \"MODE:$(stty -a | grep -o -- '-\\?icanon' | head -1)\"; sleep 60"
        var environment = ["LANG": "C.UTF-8"]
        if let editor { environment["EDITOR"] = editor }
        let isNew = !FileManager.default.fileExists(atPath: store.path)
        let tmux = try TmuxSession(command: command, width: width, height: height, environment: environment)
        if isNew {
            try tmux.waitFor("Create a new store at \(store.path)? y/n")
            try tmux.press("y")
        }
        return tmux
    }

    /// Attaches the image at `path` to the selected note through the app's prompts (the path, then
    /// the caption: `caption` typed over the default), and waits for the note's view to show it
    /// (`detail`, e.g. "Image 1 of 1 · 40×20 px").
    func attach(_ path: String, caption: String? = nil, in tmux: TmuxSession, shows detail: String) throws {
        try tmux.press("a")
        try tmux.waitFor("Attach image (path):")
        try tmux.type(path)
        try tmux.press("Enter")
        try tmux.waitFor("Caption: New Photo")
        if let caption {
            try tmux.press("C-u")
            try tmux.type(caption)
        }
        try tmux.press("Enter")
        try tmux.waitFor(detail)
    }

    /// Quits the app and waits for its clean exit.
    func quit(_ tmux: TmuxSession) throws {
        try tmux.press("q")
        try tmux.waitFor("EXITED:0")
    }

    @Test("in a real terminal, Ctrl-Home in the editor reaches line 1 of a long body at once (issue #38)")
    func controlHome() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let body = (1...2_000).map { "line \($0)" }.joined(separator: "\n")
        let added = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Long", "--body", body])
        try #require(added.exitCode == 0, "\(added.standardError)")
        let tmux = try launch(store: store)
        try tmux.waitFor("Long")
        try tmux.press("e")
        try tmux.waitFor("Edit note")
        try tmux.press("Tab", "Tab", "C-Home")
        try tmux.type("TOP ")
        try tmux.press("C-s")
        try tmux.waitFor("TOP line 1")
        try tmux.press("Escape", "q")
        try tmux.waitFor("EXITED:0")
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "show", "1"]).standardOutput.contains("\nTOP line 1\nline 2\n"))
    }

    @Test("create a note, attach an image, see it, edit it in $EDITOR, search, delete")
    func fullFlow() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let image = try folder.writeImage(named: "photo.png", width: 40, height: 20)
        let editor = try folder.write("#!/bin/sh\nprintf 'edited in the editor' > \"$1\"\n", to: "editor.sh")
        chmod(editor.path, 0o755)
        let tmux = try launch(store: store, editor: editor.path)

        try tmux.waitFor("No notes yet: press n to write one.")
        try tmux.press("n")
        try tmux.waitFor("New note")
        try tmux.type("Holiday 🏖 笔记")
        // Tab goes from the title to v5's tags, then to the body.
        try tmux.press("Tab", "Tab")
        try tmux.type("first draft")
        try tmux.press("C-s")
        try tmux.waitFor("note created")
        #expect(try tmux.screen().contains("›Holiday 🏖 笔记"))

        try attach(image.path, caption: "Holiday snap", in: tmux, shows: "Image 1 of 1 · 40×20 px")
        #expect(try tmux.screen().contains("Caption: Holiday snap"))
        try tmux.press("Escape")
        try tmux.waitFor("[img]")

        try tmux.press("e")
        try tmux.waitFor("Edit note")
        try tmux.press("Tab", "Tab", "C-e")
        try tmux.waitFor("body taken back from the editor")
        try tmux.press("C-s")
        try tmux.waitFor("edited in the editor")

        try tmux.press("Escape", "/")
        try tmux.type("EDITED")
        try tmux.waitFor("(1 found)")
        try tmux.press("Escape")
        try tmux.press("d")
        try tmux.waitFor("Delete the note “Holiday 🏖 笔记”? y/N")
        try tmux.press("y")
        try tmux.waitFor("No notes yet")
        try tmux.press("q")
        let end = try tmux.waitFor("MODE:")
        #expect(end.contains("EXITED:0"))
        #expect(end.contains("MODE:icanon"), "the terminal must be back in canonical mode: \(end)")
    }

    @Test("launched on a v1 store, the app shows the upgrade, then the migrated notes")
    func migrationScreen() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        let tmux = try launch(store: store)
        let screen = try tmux.waitFor("Your notes were upgraded")
        #expect(screen.contains("UnCloudNotesDataModel → UnCloudNotesDataModel v5, 4 steps"))
        // All four steps run as one composed pass, as the log says: none is called in place.
        #expect(screen.contains("in one composed pass with steps 1-4") && !screen.contains("in place"), "\(screen)")
        #expect(screen.contains("UnCloudNotesDataModel.sqlite.v1-backup"))
        #expect(FileManager.default.fileExists(atPath: store.path + ".v1-backup"))
        try tmux.press("Space")
        let list = try tmux.waitFor("Groceries")
        #expect(list.contains("12 notes · v5"))
        try tmux.press("C-c")
        try tmux.waitFor("EXITED:0")
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: UnCloudNotesModel.load().current))
    }

    @Test("the migration screen's log gives each pass's objects and time per entity mapping; ? explains the kinds of steps")
    func migrationScreenStatisticsAndStepKinds() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v2", into: folder)
        let tmux = try launch(store: store, arguments: "--model-version v4")
        // Lines wrap at the screen's width: read it as one text.
        // The pass's numbers are painted with or after the last step's: wait for both.
        let pattern = #"NoteToNote: \d+ read, \d+ written, \d+\.\d{3} s"#
        let screen = try tmux.waitUntil("the upgrade done with its numbers") {
            let text = $0.replacingOccurrences(of: "\n", with: " ")
            return text.contains("Your notes were upgraded") && text.range(of: pattern, options: .regularExpression) != nil
        }.replacingOccurrences(of: "\n", with: " ")
        #expect(screen.contains("steps 1-2 (UnCloudNotesDataModel v2 -> UnCloudNotesDataModel v3 -> UnCloudNotesDataModel v4, one pass) done in"))
        #expect(screen.range(of: #"NoteToNote: \d+ read, \d+ written, \d+\.\d{3} s"#, options: .regularExpression) != nil, "\(screen)")
        #expect(screen.contains("? step kinds"))
        try tmux.press("?")
        // The explanation's lines are painted together, but may reach tmux in more than one write.
        _ = try tmux.waitUntil("the kinds of steps explained") {
            $0.contains("Kinds of steps") && $0.contains("in place:") && $0.contains("mapping model:") && $0.contains("custom policy:")
        }
        try tmux.press("?")
        _ = try tmux.waitUntil("the kinds hidden") { !$0.contains("Kinds of steps") }
        try tmux.press("Space")
        try tmux.waitFor("5 notes · v4")
        try tmux.press("C-c")
        try tmux.waitFor("EXITED:0")
    }

    @Test("a tiny terminal shows a clear message until it grows")
    func tinyTerminal() throws {
        let folder = try TemporaryFolder()
        let tmux = try TmuxSession(command: "'\(BuiltExecutable.url.path)' --store '\(folder.url.path)/n.sqlite'; sleep 60",
                                   width: 40, height: 10, environment: ["LANG": "C.UTF-8"])
        try tmux.waitFor("Create a new store at")
        try tmux.press("y")
        try tmux.waitFor("Terminal too small")
        try tmux.waitFor("need 50x12, have 40x10")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor("No notes yet: press n to write one.")
        try tmux.resize(width: 45, height: 24)
        try tmux.waitFor("need 50x12, have 45x24")
    }

    @Test("without a terminal, or with TERM=dumb: one line pointing to the scriptable commands, exit code 2")
    func noTerminal() throws {
        let folder = try TemporaryFolder()
        let piped = try BuiltExecutable.run(["--store", folder.url.appendingPathComponent("n.sqlite").path])
        #expect(piped.exitCode == 2)
        #expect(piped.standardError == "uncloudnotes: no terminal: the full-screen app needs one on stdin and stdout; use the scriptable commands instead (uncloudnotes notes --help)\n")
        let tmux = try TmuxSession(command: "TERM=dumb '\(BuiltExecutable.url.path)' --store '\(folder.url.path)/n.sqlite'; echo \"EXITED:$?\"; sleep 60",
                                   environment: ["LANG": "C.UTF-8"])
        let screen = try tmux.waitFor("EXITED:2")
        #expect(screen.contains("TERM is \"dumb\""))
    }
}
