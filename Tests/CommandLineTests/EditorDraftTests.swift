import Foundation
import Testing
import TestSupport

/// Editor drafts (bug 4): the temporary file never stays in the temporary folder; a failed
/// editor's text is kept, whole path named, in `<data folder>/drafts` only when it holds text
/// the store does not.
@Suite("Editor drafts: kept only when they hold new text, in the data folder", .serialized)
struct EditorDraftTests {
    /// A store with note 1 ("old body"), a private temporary folder and data folder for the run.
    struct Setup {
        let folder: TemporaryFolder
        let store: URL
        let temporary: URL
        let data: URL
        var drafts: URL { data.appendingPathComponent("uncloudnotes/drafts") }

        init() throws {
            folder = try TemporaryFolder()
            store = folder.url.appendingPathComponent("notes.sqlite")
            temporary = folder.url.appendingPathComponent("tmp")
            data = folder.url.appendingPathComponent("a-data-folder-whose-long-name-must-wrap/share")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            let added = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Plan", "--body", "old body"])
            #expect(added.exitCode == 0, "\(added.standardError)")
        }

        /// `command` (the program's arguments) at a terminal in tmux, with this editor.
        func atTerminal(_ arguments: String, editor: String, width: Int = 200) throws -> TmuxSession {
            let command = "'\(BuiltExecutable.url.path)' --store '\(store.path)' \(arguments); echo \"EXITED:$?\"; sleep 60"
            return try TmuxSession(command: command, width: width, height: 30, environment: [
                "LANG": "C.UTF-8", "EDITOR": editor, "VISUAL": "", "TMPDIR": temporary.path, "XDG_DATA_HOME": data.path,
            ])
        }

        /// An editor script that writes `text` (no single quotes) into the draft and exits with `status`.
        func failingEditor(writing text: String, status: Int) throws -> String {
            let script = try folder.write("printf '\(text)' > \"$1\"\nexit \(status)\n", to: "editor.sh")
            // Read by sh, not executed: a script just written can fail to exec with ETXTBSY while
            // another test's child, forked meanwhile, still holds its write descriptor.
            return "sh '\(script.path)'"
        }

        func keptDrafts() throws -> [URL] {
            guard FileManager.default.fileExists(atPath: drafts.path) else { return [] }
            return try FileManager.default.contentsOfDirectory(at: drafts, includingPropertiesForKeys: nil)
        }

        /// The one draft kept, after checking that it holds `text` and that the temporary folder is empty.
        func onlyKeptDraft(holding text: String) throws -> URL {
            let drafts = try keptDrafts()
            try #require(drafts.count == 1, "\(drafts)")
            #expect(try String(contentsOf: drafts[0], encoding: .utf8) == text)
            #expect(try leftInTemporaryFolder().isEmpty)
            return drafts[0]
        }

        /// `notes edit 1` in vim, once vim shows the body.
        func editingInVim() throws -> TmuxSession {
            let tmux = try atTerminal("notes edit 1", editor: "vim -u NONE -N -n")
            try tmux.waitFor("old body")
            return tmux
        }

        func leftInTemporaryFolder() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: temporary.path)
        }

        func body() throws -> String {
            let shown = try BuiltExecutable.run(["--store", store.path, "notes", "show", "1", "--json"]).standardOutput
            let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
            return try #require(object["body"] as? String)
        }
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("an editor that never started (status 127) leaves no draft anywhere and says how to fix it")
    func editorNotFound() throws {
        let setup = try Setup()
        let tmux = try setup.atTerminal("notes edit 1", editor: "nonexistent-editor")
        let screen = try tmux.waitFor("EXITED:1")
        #expect(screen.contains("cannot run the editor \"nonexistent-editor\" (the shell found no such command, status 127)"), "\(screen)")
        #expect(try setup.leftInTemporaryFolder().isEmpty)
        #expect(try setup.keptDrafts().isEmpty)
        #expect(try setup.body() == "old body")
    }

    @Test("an editor that fails after writing new text: the text is kept in <data folder>/drafts (0600, 0700), named whole")
    func failedEditorKeepsNewText() throws {
        let setup = try Setup()
        let editor = try setup.failingEditor(writing: "typed before the crash\\n", status: 3)
        let tmux = try setup.atTerminal("notes edit 1", editor: editor)
        let screen = try tmux.waitFor("EXITED:1")
        let draft = try setup.onlyKeptDraft(holding: "typed before the crash\n")
        // The line may be wrapped by the terminal.
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains("exited with status 3; nothing was written, your text is kept in \(draft.path)"),
                "\(screen)")
        #expect(try mode(draft) == 0o600 && mode(setup.drafts) == 0o700)
        #expect(try setup.body() == "old body")
    }

    @Test("vim quit with :cq, the text unchanged: no draft, the temporary file removed")
    func vimCqUnchanged() throws {
        let setup = try Setup()
        let tmux = try setup.editingInVim()
        try tmux.press(":cq", "Enter")
        let screen = try tmux.waitFor("EXITED:1")
        #expect(screen.contains("exited with status 1; nothing was written (the text was not changed)"), "\(screen)")
        #expect(try setup.leftInTemporaryFolder().isEmpty)
        #expect(try setup.keptDrafts().isEmpty)
    }

    @Test("vim: text written with :w, then :cq: the written text is kept as a draft")
    func vimCqAfterWriting() throws {
        let setup = try Setup()
        let tmux = try setup.editingInVim()
        try tmux.type("ggdGinew words")
        try tmux.press("Escape", ":w", "Enter", ":cq", "Enter")
        let screen = try tmux.waitFor("EXITED:1")
        let draft = try setup.onlyKeptDraft(holding: "new words\n")
        #expect(screen.replacingOccurrences(of: "\n", with: "").contains("your text is kept in \(draft.path)"), "\(screen)")
        #expect(try setup.body() == "old body")
    }

    /// Whether process `pid` has ended: gone, or a zombie (its state, after the command's closing
    /// parenthesis in `/proc/<pid>/stat`, is Z).
    private static func hasEnded(_ pid: pid_t) -> Bool {
        // No such file: the process is gone.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    @Test("a closed terminal (SIGHUP) or a shutdown (SIGTERM) while a new note is typed in the app: the text is kept as a draft",
          arguments: [SIGHUP, SIGTERM])
    func typedTextOutlivesTheTerminal(signal: Int32) throws {
        let setup = try Setup()
        let tmux = try setup.atTerminal("", editor: "false")
        try tmux.waitFor("Plan")
        try tmux.press("n")
        try tmux.waitFor("New note")
        try tmux.type("Typed before the end")
        try tmux.press("Tab", "Tab")
        try tmux.type("its body")
        try tmux.waitFor("its body")
        let app = try #require(try tmux.programProcesses().first)
        if signal == SIGHUP {
            try tmux.closeProgramWindow()
            // The shell that started the app ended with the window: once ended, the app is gone
            // or, where nobody reaps orphans, a zombie.
            let deadline = Date().addingTimeInterval(15)
            while !Self.hasEnded(app), Date() < deadline { usleep(20_000) }
            #expect(Self.hasEnded(app), "the app outlived its terminal")
        } else {
            // Then SIGHUP at once, as systemd ends a session: the second signal must not end the app
            // before the text is kept (the app ends as the first would end it).
            #expect(kill(app, signal) == 0 && kill(app, SIGHUP) == 0)
            // The app ends as the signal would end it, once the text is kept.
            try tmux.waitFor("EXITED:\(128 + signal)")
        }
        _ = try setup.onlyKeptDraft(holding: "Typed before the end\nits body")
        #expect(try setup.body() == "old body", "the note on file changed")
    }

    @Test("in the app, a kept draft's whole path is shown, wrapped over the rows above the status line")
    func appShowsWholePath() throws {
        let setup = try Setup()
        let editor = try setup.failingEditor(writing: "typed in the editor of the app\\n", status: 1)
        let tmux = try setup.atTerminal("", editor: editor, width: 60)
        try tmux.waitFor("Plan")
        try tmux.press("e")
        try tmux.waitFor("Edit note")
        // Ctrl-E opens the editor from the body (in the title it goes to the line's end); Tab goes
        // from the title to v5's tags, then to the body.
        try tmux.press("Tab", "Tab", "C-e")
        // The message's rows, each drawn from its second column, joined back together (the path,
        // longer than a row, is broken anywhere; tmux drops the space a row ends with).
        func message(_ screen: String) -> String {
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let first = rows.firstIndex(where: { $0.contains("the editor") }) else { return "" }
            return rows[first...].map { String($0.dropFirst()) }.joined()
        }
        let screen = try tmux.waitUntil("the kept draft's path") { screen in
            try setup.keptDrafts().first.map { message(screen).contains($0.path) } ?? false
        }
        #expect(message(screen).contains("your text is kept in"), "\(screen)")
        _ = try setup.onlyKeptDraft(holding: "typed in the editor of the app\n")
    }
}
