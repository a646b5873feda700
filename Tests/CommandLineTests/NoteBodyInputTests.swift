import Foundation
import Testing
import TestSupport

/// Where `notes add` and `notes edit` take a body from: nothing a user wrote is erased by an
/// empty pipe, and at a terminal the user's real editor opens, in the foreground.
@Suite("notes add/edit: the body from --body, a pipe or the editor", .serialized)
struct NoteBodyInputTests {
    private func app(_ store: URL, _ arguments: [String], input: String? = nil) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run(["--store", store.path] + arguments, standardInput: input.map { Data($0.utf8) })
    }

    private func body(_ store: URL) throws -> String {
        let shown = try app(store, ["notes", "show", "1", "--json"]).standardOutput
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        return try #require(object["body"] as? String)
    }

    private func storeWithNote(_ folder: TemporaryFolder, body: String = "keep me") throws -> URL {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        #expect(try app(store, ["notes", "add", "--title", "Plan", "--body", body]).exitCode == 0)
        return store
    }

    @Test("an empty pipe (true | notes edit 1, echo | notes edit 1) changes nothing and says so with edit's usage")
    func emptyPipeKeepsBody() throws {
        let folder = try TemporaryFolder()
        let store = try storeWithNote(folder)
        for input in ["", "\n"] {
            let result = try app(store, ["notes", "edit", "1"], input: input)
            #expect(result.exitCode == 2)
            #expect(result.standardError.hasPrefix("Error: \(Self.emptyInputRefusal)\nUsage: uncloudnotes notes edit "), "\(result.standardError)")
            #expect(result.standardError.contains("See 'uncloudnotes notes edit --help'"))
            #expect(!result.standardOutput.contains("updated"))
        }
        #expect(try body(store) == "keep me")
    }

    /// Found by a new user's trial: a notes add that met a store busy past the wait lost the
    /// text piped into it. Any failure after the text was read keeps it, as an editor's does.
    @Test("a piped body whose save fails (here the store's folder is missing) is kept in the drafts folder, 0600, and the error says where")
    func failedSaveKeepsPipedText() throws {
        let folder = try TemporaryFolder()
        let data = folder.url.appendingPathComponent("data")
        let missing = folder.url.appendingPathComponent("no such folder/notes.sqlite")
        let added = try BuiltExecutable.run(["--store", missing.path, "notes", "add", "--title", "Plan"], environment: ["XDG_DATA_HOME": data.path],
                                            standardInput: Data("precious text\n".utf8))
        #expect(added.exitCode == 1)
        let line = try #require(added.standardError.split(separator: "\n").last.map(String.init))
        #expect(line.contains("does not exist") && line.contains("your text is kept in "), "\(added.standardError)")
        let kept = try #require(line.components(separatedBy: "your text is kept in ").last)
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "precious text")
        #expect((try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int) == 0o600)
        #expect(kept.hasPrefix(data.appendingPathComponent("uncloudnotes/drafts").path))
        // Text given with --body is still on the command line: nothing is kept for it.
        let literal = try BuiltExecutable.run(["--store", missing.path, "notes", "add", "--title", "Plan", "--body", "given"],
                                              environment: ["XDG_DATA_HOME": data.path])
        #expect(literal.exitCode == 1 && !literal.standardError.contains("kept in"), "\(literal.standardError)")
    }

    static let emptyInputRefusal = "standard input was empty, so nothing was written (add --allow-empty to store an empty body)"

    @Test("an empty pipe or /dev/null adds no note, as notes edit refuses it; --allow-empty and --body \"\" add one")
    func emptyPipeAddsNothing() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        // `input: nil` runs the command with standard input from /dev/null.
        for input in ["", nil] {
            let refused = try app(store, ["notes", "add", "--title", "empty"], input: input)
            #expect(refused.exitCode == 2)
            #expect(refused.standardError.hasPrefix("Error: \(Self.emptyInputRefusal)\nUsage: uncloudnotes notes add "), "\(refused.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(try app(store, ["notes", "add", "--title", "empty", "--allow-empty"], input: "").exitCode == 0)
        #expect(try app(store, ["notes", "add", "--title", "explicit", "--body", ""]).exitCode == 0)
        #expect(try app(store, ["notes", "list"]).standardOutput.split(separator: "\n").count == 2)
    }

    @Test("--title with an empty pipe changes the title and keeps the body")
    func titleOnlyKeepsBody() throws {
        let folder = try TemporaryFolder()
        let store = try storeWithNote(folder)
        #expect(try app(store, ["notes", "edit", "1", "--title", "Plan B"], input: "").exitCode == 0)
        #expect(try body(store) == "keep me")
    }

    @Test("--body - refuses empty input unless --allow-empty")
    func explicitStandardInput() throws {
        let folder = try TemporaryFolder()
        let store = try storeWithNote(folder)
        let refused = try app(store, ["notes", "edit", "1", "--body", "-"], input: "")
        #expect(refused.exitCode == 2 && refused.standardError.hasPrefix("Error: \(Self.emptyInputRefusal)"))
        #expect(try body(store) == "keep me")
        #expect(try app(store, ["notes", "edit", "1", "--body", "-"], input: "from stdin\n").exitCode == 0)
        #expect(try body(store) == "from stdin")
        #expect(try app(store, ["notes", "edit", "1", "--body", "-", "--allow-empty"], input: "").exitCode == 0)
        #expect(try body(store) == "")
    }

    @Test("a pipe that delivers text replaces the body, without the final newline")
    func pipedBody() throws {
        let folder = try TemporaryFolder()
        let store = try storeWithNote(folder)
        #expect(try app(store, ["notes", "edit", "1"], input: "new text\nline 2\n").standardOutput == "updated note 1\n")
        #expect(try body(store) == "new text\nline 2")
    }

    /// Runs a command at a terminal in tmux with vim as the editor; the pane stays for reading.
    private func atTerminal(_ store: URL, _ arguments: String, editor: String = "vim -u NONE -N -n") throws -> TmuxSession {
        let command = "'\(BuiltExecutable.url.path)' --store '\(store.path)' \(arguments); echo \"EXITED:$?\"; sleep 60"
        return try TmuxSession(command: command, width: 200, height: 30,
                               environment: ["LANG": "C.UTF-8", "EDITOR": editor, "VISUAL": ""])
    }

    /// `notes edit 1` of a note whose body is "old body", at a terminal, once vim shows the body.
    private func editingOldBody() throws -> (folder: TemporaryFolder, store: URL, tmux: TmuxSession) {
        let folder = try TemporaryFolder()
        let store = try storeWithNote(folder, body: "old body")
        let tmux = try atTerminal(store, "notes edit 1")
        try tmux.waitFor("old body")
        return (folder, store, tmux)
    }

    @Test("at a terminal, notes edit opens vim in the foreground: what is typed and saved is stored")
    func editInVim() throws {
        let session = try editingOldBody()
        defer { withExtendedLifetime(session.folder) {} }
        let (store, tmux) = (session.store, session.tmux)
        try tmux.replaceVimBuffer(with: "typed in vim, 笔记")
        try tmux.waitFor("EXITED:0")
        #expect(try tmux.screen().contains("updated note 1"))
        #expect(try body(store) == "typed in vim, 笔记")
    }

    @Test("quitting vim without a change writes nothing")
    func unchangedInVim() throws {
        let session = try editingOldBody()
        defer { withExtendedLifetime(session.folder) {} }
        let (store, tmux) = (session.store, session.tmux)
        try tmux.type(":q")
        try tmux.press("Enter")
        let screen = try tmux.waitFor("EXITED:1")
        #expect(screen.contains("left unchanged in the editor, so nothing was written"))
        #expect(try body(store) == "old body")
    }

    @Test("at a terminal, notes add takes the body from vim; an empty one adds nothing")
    func addInVim() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let empty = try atTerminal(store, "notes add --title Empty")
        try empty.waitFor("~")
        try empty.type(":wq")
        try empty.press("Enter")
        #expect(try empty.waitFor("EXITED:1").contains("the body from the editor was empty"))

        let tmux = try atTerminal(store, "notes add --title Written")
        try tmux.waitFor("~")
        try tmux.type("ifirst line")
        try tmux.press("Enter")
        try tmux.type("second line")
        try tmux.press("Escape")
        try tmux.type(":wq")
        try tmux.press("Enter")
        try tmux.waitFor("EXITED:0")
        #expect(try body(store) == "first line\nsecond line")
        #expect(try app(store, ["notes", "list"]).standardOutput.split(separator: "\n").count == 1)
    }
}
