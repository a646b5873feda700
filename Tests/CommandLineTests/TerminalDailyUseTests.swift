import Foundation
import Testing
import TestSupport
import UnCloudNotesKit

/// The full-screen app as people use it: a real editor, odd terminals, logs. An extension of
/// `TerminalAppTests` so all tmux tests run one at a time.
extension TerminalAppTests {
    /// A store with one note.
    private func store(title: String, body: String, in folder: TemporaryFolder) throws -> URL {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        try UnCloudNotesStack(storeURL: store).open().add(NoteDraft(title: title, body: body))
        return store
    }

    /// The bodies of the store's notes, read after the app has quit.
    private func bodies(of store: URL) throws -> [String] {
        let book = try UnCloudNotesStack(storeURL: store).open()
        return try book.noteIDs().map { try book.snapshot(of: $0).body }
    }

    @Test("Ctrl-E opens vim in the foreground: text typed there is saved, with no terminal replies in the body")
    func realEditor() throws {
        let folder = try TemporaryFolder()
        let store = try store(title: "Vim note", body: "old body", in: folder)
        let tmux = try launch(store: store, editor: "vim -u NONE -N -n -i NONE")
        try tmux.waitFor("Vim note")
        try tmux.press("e")
        try tmux.waitFor("Edit note")
        // Title, tags (v5), body.
        try tmux.press("Tab", "Tab", "C-e")
        try tmux.waitFor(".txt\"")
        try tmux.replaceVimBuffer(with: "typed in vim")
        let back = try tmux.waitFor("body taken back from the editor")
        #expect(back.contains("typed in vim"))
        #expect(!back.contains(";1R") && !back.contains(";2R"), "terminal replies must not land in the body: \(back)")
        try tmux.press("C-s")
        try tmux.waitFor("note saved")
        try tmux.press("Escape")
        try tmux.waitFor("q quit")
        try quit(tmux)
        #expect(try bodies(of: store) == ["typed in vim"])
    }

    @Test("an unknown TERM falls back to xterm-256color and says so")
    func unknownTerminal() throws {
        let folder = try TemporaryFolder()
        let store = try store(title: "Kitty", body: "", in: folder)
        let tmux = try launch(store: store, variables: "TERM=xterm-ghostty")
        let screen = try tmux.waitFor("TERM=xterm-ghostty is unknown here")
        #expect(screen.contains("›Kitty"))
        try quit(tmux)
    }

    @Test("without a UTF-8 locale, non-ASCII text still shows")
    func asciiLocale() throws {
        let folder = try TemporaryFolder()
        let store = try store(title: "笔记 Café", body: "", in: folder)
        let tmux = try launch(store: store, variables: "LC_ALL=C LANG=C")
        try tmux.waitFor("›笔记 Café")
        try quit(tmux)
    }

    @Test("--sql-debug logs to the --log file, never over the screen; without --log it is refused")
    func sqlLog() throws {
        let folder = try TemporaryFolder()
        let store = try store(title: "Logged", body: "", in: folder)
        let log = folder.url.appendingPathComponent("sql.log")
        let tmux = try launch(store: store, arguments: "--sql-debug --log '\(log.path)'")
        let screen = try tmux.waitFor("›Logged")
        #expect(!screen.contains("SELECT"))
        try quit(tmux)
        #expect(try String(contentsOf: log, encoding: .utf8).contains("SELECT"))
        let attributes = try FileManager.default.attributesOfItem(atPath: log.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let refused = try launch(store: store, arguments: "--sql-debug")
        let message = try refused.waitFor("EXITED:")
        #expect(message.contains("--sql-debug with the full-screen app needs --log FILE") && !message.contains("EXITED:0"))
    }

    @Test("at 80x24 the migration screen shows every step's target; a resize redraws and is not a key")
    func migrationAt80x24() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        let tmux = try launch(store: store, width: 80, height: 24)
        let screen = try tmux.waitFor("Your notes were upgraded")
        #expect(screen.contains("UnCloudNotesDataModel → UnCloudNotesDataModel v5, 4 steps"))
        #expect(screen.contains("v5: mapping model UnCloudNotesMappingModel_v4_to_v5"), "the last step, wrapped, not cut: \(screen)")
        try tmux.resize(width: 90, height: 26)
        let resized = try tmux.waitFor("[" + String(repeating: "█", count: 30) + "]")
        #expect(resized.contains("Your notes were upgraded"))
        try tmux.press("Space")
        try tmux.waitFor("12 notes · v5")
        try quit(tmux)
    }
}

extension TerminalAppTests {
    @Test("a note added by another process (notes add) shows in the open app without a key")
    func outsideChangeShows() throws {
        let folder = try TemporaryFolder()
        let store = try store(title: "First", body: "", in: folder)
        let tmux = try launch(store: store)
        try tmux.waitFor("›First")
        let added = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "From another shell", "--body", "hi"])
        #expect(added.exitCode == 0, "\(added.standardError)")
        let screen = try tmux.waitFor("From another shell")
        #expect(screen.contains("›First") && screen.contains("2 notes"))
        try quit(tmux)
    }
}

extension TerminalAppTests {
    @Test("a phone-size photo (12 MP JPEG) attaches and previews, and a search typed meanwhile finds its note")
    func phonePhoto() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let book = try UnCloudNotesStack(storeURL: store).open()
        try book.add(NoteDraft(title: "Groceries", body: "milk"))
        try book.add(NoteDraft(title: "Holiday photos", body: "beach"))
        let photo = try folder.writeImage(named: "IMG_0001.jpg", width: 4000, height: 3000, format: "jpeg")
        let tmux = try launch(store: store)
        try tmux.waitFor("›Holiday photos")
        try attach(photo.path, in: tmux, shows: "Image 1 of 1 · 4000×3000 px")
        try tmux.press("Escape")
        try tmux.waitFor("[img]")
        try tmux.press("/")
        try tmux.type("groc")
        let found = try tmux.waitFor("(1 found)")
        #expect(found.contains("Groceries") && !found.contains("›Holiday photos"), "\(found)")
        try tmux.press("Escape")
        try quit(tmux)
    }
}

extension TerminalAppTests {
    @Test("two app instances on one store: each sees the other's new notes and both save")
    func twoInstances() throws {
        let folder = try TemporaryFolder()
        let store = try store(title: "Shared", body: "", in: folder)
        let (first, second) = (try launch(store: store), try launch(store: store))
        try first.waitFor("›Shared")
        try second.waitFor("›Shared")
        for (writer, title) in [(first, "Written in the first"), (second, "Written in the second")] {
            try writer.press("n")
            try writer.waitFor("New note")
            try writer.type(title)
            try writer.press("C-s")
            try writer.waitFor("note created")
        }
        let seenByFirst = try first.waitFor("3 notes")
        let seenBySecond = try second.waitFor("3 notes")
        for screen in [seenByFirst, seenBySecond] {
            #expect(screen.contains("Written in the first") && screen.contains("Written in the second"), "\(screen)")
        }
        try quit(first)
        try quit(second)
    }
}

extension TerminalAppTests {
    @Test("a ZWJ family and flags show whole in a real terminal, with the date still aligned after them")
    func emojiOnScreen() throws {
        let folder = try TemporaryFolder()
        let store = try store(title: "Family 👨‍👩‍👧 day 🇯🇵", body: "", in: folder)
        let tmux = try launch(store: store, width: 80, height: 24)
        let screen = try tmux.waitFor("day")
        let line = try #require(screen.split(separator: "\n").first { $0.contains("Family") })
        #expect(line.contains("👨") && line.contains("👩") && line.contains("👧") && line.contains("🇯🇵"), "\(line)")
        let end = line.trimmingCharacters(in: .whitespaces)
        #expect(end.hasSuffix("AM") || end.hasSuffix("PM"), "the date stays whole at the right: \(line)")
        try quit(tmux)
    }
}
