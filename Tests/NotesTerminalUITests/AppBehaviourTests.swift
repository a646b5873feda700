import Foundation
import ManagedStore
import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("Keys and what they do")
struct AppBehaviourTests {
    init() { DisplayWidth.configureLocale() }

    @Test("n, a title, Tab, a body with CJK and emoji, Ctrl-S: the note is stored and selected")
    func createNote() throws {
        let harness = try AppHarness(notes: [])
        #expect(harness.screen().contains("No notes yet: press n to write one."))
        harness.press(.character("n"))
        harness.type("Shopping 🛒")
        harness.press(.tab)
        harness.type("牛奶\ne\u{301}ggs")
        harness.press(.control("s"))
        #expect(try harness.titles() == ["Shopping 🛒"])
        let note = try #require(try harness.book.noteIDs().first)
        #expect(try harness.book.snapshot(of: note).body == "牛奶\néggs")
        #expect(harness.screen().contains("›Shopping 🛒"))
        #expect(harness.screen().contains("note created"))
    }

    @Test("empty titles are refused with a message, and nothing is stored")
    func emptyTitle() throws {
        let harness = try AppHarness(notes: [])
        harness.press(.character("n"), .tab)
        harness.type("body only")
        harness.press(.control("s"))
        #expect(harness.screen().contains("empty titles are refused"))
        #expect(try harness.titles().isEmpty)
    }

    @Test("Esc with changes asks before discarding; n keeps editing, y discards")
    func discardWarning() throws {
        let harness = try AppHarness(notes: [("Keep", "me", 0)])
        harness.press(.character("e"))
        harness.type(" changed")
        harness.press(.escape)
        #expect(harness.screen().contains("Discard your changes? y/N"))
        harness.press(.character("n"))
        #expect(harness.screen().contains("Title: Keep changed"))
        harness.press(.escape, .character("y"))
        #expect(try harness.titles() == ["Keep"])
    }

    @Test("Ctrl-E hands the body to the external editor and takes the result back")
    func externalEditor() throws {
        let harness = try AppHarness(notes: [("Draft", "old body", 0)])
        harness.press(.character("e"), .tab)
        #expect(harness.press(.control("e")) == [.openEditor("old body")])
        _ = harness.runner.perform(harness.app.receive(.edited("new body\n")), on: harness.app)
        harness.press(.control("s"))
        let note = try #require(try harness.book.noteIDs().first)
        #expect(try harness.book.snapshot(of: note).body == "new body")
    }

    @Test("search filters titles and bodies as it is typed, ignoring case and accents; Esc clears")
    func search() throws {
        let harness = try AppHarness()
        harness.press(.character("/"))
        harness.type("TENT")
        harness.finishBackgroundWork()
        #expect(harness.screen().contains("(1 found)"))
        #expect(harness.screen().contains("Trip") && !harness.screen().contains("Groceries"))
        harness.press(.escape)
        #expect(harness.screen().contains("Groceries"))
        harness.press(.character("/"))
        harness.type("中文")
        harness.press(.enter)
        harness.finishBackgroundWork()
        #expect(harness.screen().contains("(1 found)"))
    }

    @Test("d asks, naming the note; only y deletes")
    func delete() throws {
        let harness = try AppHarness()
        harness.press(.character("d"))
        #expect(harness.screen().contains("Delete the note “Trip”? y/N"))
        harness.press(.character("n"))
        #expect(try harness.titles().count == 4)
        harness.press(.character("d"), .character("y"))
        #expect(try harness.titles() == ["Party 🎉", "笔记 — 中文标题", "Groceries"])
        #expect(try harness.book.context.count(FetchRequest(entityName: "ImageAttachment")) == 1)
    }

    @Test("in a window too small to show the screen, keys wait: d then y deletes nothing, e opens nothing; q quits (issue #38, bug 8)")
    func tooSmallWindowIgnoresKeys() throws {
        let harness = try AppHarness()
        harness.press(.resize(columns: 10, rows: 3))
        harness.press(.character("d"), .character("y"), .character("e"), .enter)
        #expect(try harness.titles().count == 4)
        harness.press(.resize(columns: 80, rows: 24))
        #expect(!harness.screen().contains("Delete the note"), "no question was left waiting")
        harness.press(.resize(columns: 10, rows: 3))
        #expect(harness.press(.character("q")) == [.quit])
        harness.press(.resize(columns: 80, rows: 24), .character("d"))
        #expect(harness.screen().contains("Delete the note “Trip”? y/N"))
    }

    @Test("Ctrl-Home and Ctrl-End reach the body's first line and its end from anywhere (issue #38)")
    func editorTopAndEnd() throws {
        let body = (1...2_000).map { "line \($0)" }.joined(separator: "\n")
        let harness = try AppHarness(version: "v5", notes: [("Long", body, 0)])
        harness.press(.character("e"), .tab, .tab)
        harness.press(.controlHome)
        harness.type("TOP ")
        harness.press(.controlEnd)
        harness.type(" END")
        harness.press(.control("s"))
        let saved = try harness.book.snapshot(of: try #require(try harness.book.noteIDs().first)).body
        #expect(saved.hasPrefix("TOP line 1\n") && saved.hasSuffix("line 2000 END"), "\(saved.prefix(30))…\(saved.suffix(30))")
    }

    @Test("attaching checks the file: missing files and non-images are refused, nothing stored")
    func attachErrors() throws {
        let harness = try AppHarness(notes: [("Plain", "text", 0)])
        let text = try harness.folder.write("not an image", to: "notes.txt")
        harness.press(.character("a"))
        harness.type(harness.folder.url.appendingPathComponent("missing.png").path)
        harness.press(.enter, .enter)
        #expect(harness.screen().contains("no such file (missing.png)"))
        harness.press(.escape, .character("a"))
        harness.type(text.path)
        harness.press(.enter, .enter)
        #expect(harness.screen().contains("it is a text file, not an image"))
        #expect(harness.screen().contains("(notes.txt)"))
        #expect(try harness.book.context.count(FetchRequest(entityName: "Attachment")) == 0)
    }

    @Test("attaching a real image shows it in the note, with its pixel size")
    func attachImage() throws {
        let harness = try AppHarness(notes: [("Plain", "text", 0)])
        let png = try harness.folder.writeImage(named: "pic.png", width: 40, height: 20)
        harness.press(.character("a"))
        harness.type(png.path)
        harness.press(.enter, .enter)
        let screen = harness.screen()
        #expect(screen.contains("Image 1 of 1 · 40×20 px"))
        #expect(screen.contains("image attached"))
        harness.press(.escape)
        #expect(harness.screen().contains("[img]"))
    }

    @Test("in a note, images can be browsed, captioned (v4) and deleted")
    func attachmentsInDetail() throws {
        let harness = try AppHarness()
        harness.press(.enter, .right)
        #expect(harness.screen().contains("Image 2 of 2"))
        harness.press(.character("c"), .control("a"))
        for _ in 0..<80 { harness.press(.delete) }
        harness.type("Camp site")
        harness.press(.enter)
        #expect(harness.screen().contains("Caption: Camp site"))
        harness.press(.character("x"))
        #expect(harness.screen().contains("Delete image"))
        harness.press(.character("y"))
        #expect(harness.screen().contains("Image 1 of 1"))
    }

    @Test("what a version cannot do is hidden, not broken: v1 has no attach")
    func versionAwareness() throws {
        let harness = try AppHarness(version: "v1", notes: [("Old", "text", 0)])
        #expect(!harness.screen().contains("a attach"))
        harness.press(.character("a"))
        #expect(harness.screen().contains("notes of v1 have no images"))
        let v2 = try AppHarness(version: "v2", notes: [("One", "image", 1)])
        v2.press(.enter)
        #expect(v2.screen().contains("Image 1 of 1") && !v2.screen().contains("caption"))
    }

    @Test("launch reads only the list's first rows before the first screen; the rest comes from the background")
    func launchReadsTheFirstRows() throws {
        let total = NotesApp.launchRows + 3
        let harness = try AppHarness(notes: (0..<total).map { ("note \($0)", "", 0) })
        #expect(harness.screen().contains("\(total) notes"))
        #expect(harness.app.isWaitingForBackgroundWork, "the rest of the list is asked of the background once the first screen is drawn")
        // Newest first: the rows read at launch end at note 3.
        harness.press(.end)
        #expect(harness.screen().contains("›note 3"))
        harness.press(.home)
        harness.finishBackgroundWork()
        harness.press(.end)
        #expect(harness.screen().contains("›note 0"))
        #expect(try !AppHarness(notes: [("one", "", 0)]).app.isWaitingForBackgroundWork, "a list read whole at launch waits for nothing")
    }

    @Test("moving through a long list pages and stops at the ends")
    func navigation() throws {
        let harness = try AppHarness(notes: (0..<100).map { ("note \($0)", "", 0) })
        _ = harness.screen()
        harness.press(.pageDown)
        #expect(harness.screen().contains("›note 89"), "at 80x24 the list pages by its 10 rows above the preview")
        harness.press(.end)
        #expect(harness.screen().contains("›note 0"))
        harness.press(.down, .home)
        #expect(harness.screen().contains("›note 99"))
        harness.press(.up, .character("j"), .character("j"), .character("k"))
        #expect(harness.screen().contains("›note 98"))
        #expect(harness.press(.character("q")) == [.quit])
    }
}

@Suite("Text editing and wrapping")
struct TextTests {
    init() { DisplayWidth.configureLocale() }

    @Test("wrapping measures display columns: CJK takes two, words break at spaces")
    func wrapping() {
        let lines = TextWrapper.wrap(Array("笔记笔记笔记 and more words"), width: 10)
        #expect(lines.map(\.text) == ["笔记笔记笔", "记 and ", "more words"])
        #expect(lines.allSatisfy { DisplayWidth.of($0.text.trimmingCharacters(in: .whitespaces)) <= 10 })
        #expect(TextWrapper.wrap(Array("a\n\nb"), width: 5).map(\.text) == ["a", "", "b"])
    }

    @Test("the cursor moves by characters a person sees: combining marks and emoji are one")
    func cursor() {
        var buffer = TextBuffer("e\u{301}🇫🇷x", allowsNewlines: false)
        #expect(buffer.characters.count == 3)
        buffer.moveLeft()
        buffer.deleteBackward()
        #expect(buffer.text == "e\u{301}x")
        buffer.insert("\n")
        #expect(buffer.text == "e\u{301}x")
    }

    @Test("a buffer's text follows every edit, and buffers of the same text and cursor are equal however they were edited")
    func bufferTextAfterEdits() {
        var buffer = TextBuffer("note", allowsNewlines: true)
        #expect(buffer.text == "note")
        buffer.insert("s")
        #expect(buffer.text == "notes")
        buffer.deleteBackward()
        #expect(buffer.text == "note" && buffer == TextBuffer("note", allowsNewlines: true))
        buffer.replaceAll(with: "line\nline")
        #expect(buffer.text == "line\nline")
    }

    @Test("Tab completes paths: ~ expands, a unique folder gets its slash, several matches are listed")
    func completion() throws {
        let folder = try TemporaryFolder()
        try folder.write("", to: "photos/cat.png")
        try folder.write("", to: "photos/car.jpg")
        let unique = PathCompletion.complete(folder.url.path + "/pho")
        #expect(unique.text == folder.url.path + "/photos/")
        let several = PathCompletion.complete(folder.url.path + "/photos/c")
        #expect(several.text == folder.url.path + "/photos/ca")
        #expect(several.candidates == ["car.jpg", "cat.png"])
        #expect(PathCompletion.expand("~/x") == NSString(string: "~/x").expandingTildeInPath)
    }
}
