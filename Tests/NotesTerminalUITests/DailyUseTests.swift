import Foundation
import ManagedStore
@testable import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("Daily use: nothing lost, the image asked about is the one deleted, scrolling stops")
struct DailyUseTests {
    init() { DisplayWidth.configureLocale() }

    @Test("Ctrl-C in the editor with a draft asks before quitting; n keeps the draft, y quits")
    func controlCKeepsDraft() throws {
        let harness = try AppHarness(notes: [("Keep", "me", 0)])
        harness.press(.character("e"), .tab)
        harness.type(" and more")
        #expect(harness.press(.control("c")).isEmpty)
        #expect(harness.screen().contains("Quit and discard your changes? y/N"))
        harness.press(.character("n"))
        harness.press(.control("s"))
        let note = try #require(try harness.book.noteIDs().first)
        #expect(try harness.book.snapshot(of: note).body == "me and more")
        harness.press(.character("e"))
        #expect(harness.press(.control("c")) == [.quit], "nothing typed: nothing to lose")
        harness.press(.character("x"))
        _ = harness.press(.control("c"))
        #expect(harness.press(.character("y")) == [.quit])
    }

    @Test("the text a signal would lose: none untyped; the title and the body when typed, also under the quit question")
    func unsavedTextForADraft() throws {
        let harness = try AppHarness(notes: [("Keep", "me", 0)])
        #expect(harness.app.unsavedText == nil)
        harness.press(.character("e"))
        #expect(harness.app.unsavedText == nil, "an editor with nothing typed loses nothing")
        harness.type(" it")
        harness.press(.tab)
        harness.type(" too")
        _ = harness.press(.control("c"))
        #expect(harness.screen().contains("Quit and discard your changes? y/N"))
        #expect(harness.app.unsavedText == "Keep it\nme too")
    }

    @Test("deleting an image names, shows and deletes the same image")
    func deleteShownImage() throws {
        let harness = try AppHarness()
        let trip = try #require(try harness.book.noteIDs().first)
        // Captioned by another program, as the app has read the note already.
        let other = try harness.otherBook()
        let attachments = try other.snapshot(of: trip).attachments
        try other.setCaption("first", of: attachments[0].id)
        try other.setCaption("second", of: attachments[1].id)
        #expect(harness.catchUp())
        harness.press(.enter, .right, .character("x"))
        // 80x24 shows one image at a time: the one asked about.
        let asking = harness.screen(80, 24)
        #expect(asking.contains("Delete image 2 of “Trip”? y/N"))
        #expect(asking.contains("Image 2 of 2") && asking.contains("Caption: second"))
        harness.press(.character("y"))
        #expect(try harness.book.snapshot(of: trip).attachments.map(\.caption) == ["first"])
        #expect(harness.screen(200, 60).contains("Image 1 of 1"))
    }

    @Test("v2 holds one image: attaching another asks before replacing it")
    func replaceAsks() throws {
        let harness = try AppHarness(version: "v2", notes: [("One", "image", 1)])
        let png = try harness.folder.writeImage(named: "new.png", width: 40, height: 20)
        harness.press(.character("a"))
        harness.type(png.path)
        harness.press(.enter)
        #expect(harness.screen().contains("replace the image of “One”? y/N"))
        harness.press(.character("n"))
        let note = try #require(try harness.book.noteIDs().first)
        #expect(try harness.book.snapshot(of: note).latestAttachment?.imageData == AppHarness.png)
        harness.press(.character("a"))
        harness.type(png.path)
        harness.press(.enter, .character("y"))
        #expect(harness.screen().contains("40×20 px"))
    }

    @Test("the detail view stops scrolling at the end, Home/End/g/G jump, and says when more is below")
    func detailScrolling() throws {
        let body = (0..<100).map { "line \($0)" }.joined(separator: "\n")
        let harness = try AppHarness(notes: [("Long", body, 0)])
        harness.press(.enter)
        #expect(harness.screen().contains("↓ more"))
        for _ in 0..<200 { harness.press(.down); _ = harness.screen() }
        let end = harness.screen()
        #expect(end.contains("line 99") && !end.contains("↓ more"))
        harness.press(.pageUp)
        #expect(harness.screen() != end, "one PgUp after scrolling past the end moves back")
        harness.press(.character("g"))
        #expect(harness.screen().contains("line 0"))
        harness.press(.character("G"))
        #expect(harness.screen() == end)
        harness.press(.home)
        #expect(harness.screen().contains("line 0"))
        harness.press(.end)
        #expect(harness.screen() == end)
    }

    @Test("a resize answers no question and keeps the message")
    func resizeIsNoKey() throws {
        let harness = try AppHarness()
        harness.press(.character("d"), .resize(columns: 80, rows: 24))
        #expect(harness.screen().contains("Delete the note “Trip”? y/N"))
        harness.press(.character("y"), .resize(columns: 80, rows: 24))
        #expect(harness.screen().contains("note deleted"))
    }

    @Test("at 80x24 the detail footer keeps Esc q back, and the help scrolls to its end")
    func smallTerminal() throws {
        let harness = try AppHarness()
        harness.press(.enter)
        #expect(harness.screen(80, 24).components(separatedBy: "\n").last?.contains("Esc q back") == true)
        harness.press(.character("?"))
        let content = harness.screen(80, 24).components(separatedBy: "\n").prefix(22)
        #expect(!content.contains { $0.contains("…") }, "help lines wrap, none is cut")
        let help = harness.screen(80, 16)
        #expect(help.contains("↓ more below") && !help.contains("Running as v4"))
        harness.press(.end)
        #expect(harness.screen(80, 16).contains("Running as v4"))
        #expect(harness.screen(80, 24).contains("Running as v4"))
        harness.press(.up)
        #expect(!harness.screen(80, 16).contains("Keys"))
        harness.press(.escape)
        #expect(harness.screen(80, 24).contains("Image 1 of 2"))
    }

    @Test("a 12-megapixel photo is previewed in the background, once: typing and searching never wait for it")
    func previewDecodedOnce() throws {
        let harness = try AppHarness(notes: [("Photo", "a big camera picture", 0)])
        // Previews are made at the size the terminal has (its last resize), as the next frame draws them.
        _ = harness.screen(200, 60)
        let jpeg = try harness.folder.writeImage(named: "camera.jpg", width: 4000, height: 3000, format: "jpeg")
        harness.press(.character("a"))
        harness.type(jpeg.path)
        harness.press(.enter, .enter, .escape)
        #expect(harness.screen(200, 60).contains("(loading the image)"), "the list does not wait for the preview")
        // The detail view's (it shows the note once the image is attached) and the list's.
        #expect(harness.previewing.pendingCount == 2)
        harness.finishBackgroundWork()
        #expect(!harness.screen(200, 60).contains("(loading the image)"))
        #expect(harness.app.state.previews.madeCount == 2)
        harness.press(.character("/"))
        for (index, letter) in "came".enumerated() {
            harness.type(String(letter))
            #expect(harness.screen(200, 60).contains("Search: " + String("came".prefix(index + 1))))
            harness.finishBackgroundWork()
        }
        #expect(harness.previewing.pendingCount == 0)
        #expect(harness.app.state.previews.madeCount == 2, "the same image at the same size is decoded once")
    }
}

@Suite("Terminal text: grapheme clusters, tabs, control characters")
struct TerminalTextTests {
    init() { DisplayWidth.configureLocale() }

    @Test("a wide character under the cursor is reversed whole, without a phantom space")
    func wideCursor() throws {
        let harness = try AppHarness(notes: [])
        harness.press(.character("n"))
        harness.type("Trip to東京")
        harness.press(.left, .left)
        let buffer = harness.render(width: 80, height: 24)
        let row = try #require(buffer.lines.firstIndex { $0.hasPrefix("Title: ") })
        #expect(buffer.lines[row] == "Title: Trip to東京")
        #expect(buffer[row, 14].style.contains(.reverse) && buffer[row, 15].content == .continuation)
        #expect(buffer[row, 15].style.contains(.reverse))
    }

    @Test("emoji sequences are one cluster of two columns: ZWJ families, flags")
    func emojiSequences() {
        // A ZWJ family is laid out as its people side by side (what ncurses can draw), none lost.
        #expect(DisplayWidth.of("👨‍👩‍👧" as Character) == 6)
        #expect(DisplayWidth.of("🇯🇵" as Character) == 2)
        var buffer = CellBuffer(width: 12, height: 1)
        #expect(buffer.put("👨‍👩‍👧🇯🇵x", row: 0, column: 0) == 9)
        #expect(buffer[0, 0].content == .character("👨\u{200D}") && buffer[0, 2].content == .character("👩\u{200D}"))
        #expect(buffer[0, 4].content == .character("👧") && buffer[0, 6].content == .character("🇯🇵"))
        #expect(buffer.lines == ["👨‍👩‍👧🇯🇵x"])
    }

    @Test("tabs show as spaces to the next tab stop; Tab in the body inserts one")
    func tabs() throws {
        var buffer = CellBuffer(width: 20, height: 1)
        #expect(buffer.put("ab\tc", row: 0, column: 2) == 11)
        #expect(buffer.lines == ["  ab      c"])
        #expect(TextWrapper.wrap(Array("a\tb"), width: 20).map(\.text) == ["a\tb"])
        #expect(TextWrapper.wrap(Array("abc\tdefgh"), width: 10).map(\.text) == ["abc\tde", "fgh"])
        let harness = try AppHarness(notes: [])
        harness.press(.character("n"))
        harness.type("Tabs")
        harness.press(.tab)
        harness.type("a")
        harness.press(.tab)
        harness.type("b")
        #expect(harness.screen().contains("a       b"))
        harness.press(.backTab)
        harness.type("!")
        harness.press(.control("s"))
        let note = try #require(try harness.book.noteIDs().first)
        #expect(try harness.book.snapshot(of: note).body == "a\tb")
        #expect(try harness.book.snapshot(of: note).title == "Tabs!")
    }

    @Test("control characters in titles and bodies show visibly and never reach the terminal")
    func controlCharacters() throws {
        let title = "Pwn\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\u{7F}"
        let harness = try AppHarness(notes: [(title, "body \u{1B}]52;c;aGk=\u{07}", 0)])
        let screen = harness.screen(200, 60)
        #expect(screen.contains("›Pwn^[]0;owned^G^[[2JM-^[31m^?"))
        #expect(screen.contains("body ^[]52;c;aGk=^G"))
        let buffer = harness.render(width: 200, height: 60)
        for row in 0..<buffer.height {
            for column in 0..<buffer.width {
                guard case .character(let character) = buffer[row, column].content else { continue }
                #expect(!character.unicodeScalars.contains { $0.properties.generalCategory == .control }, "row \(row) column \(column)")
            }
        }
    }
}

@Suite("Start-up: terminal types, colours, paths, the failure screen")
struct StartUpTests {
    @Test("an unknown TERM falls back to xterm-256color with a notice; COLORTERM=truecolor picks a -direct entry")
    func terminalTypes() throws {
        let known: Set = ["xterm-256color", "xterm-direct", "tmux-256color"]
        let kitty = try TerminalType.choose(for: ["TERM": "xterm-kitty"]) { known.contains($0) }
        #expect(kitty.name == "xterm-256color")
        #expect(kitty.notice?.contains("TERM=xterm-kitty is unknown here") == true)
        #expect(try TerminalType.choose(for: ["TERM": "tmux-256color"]) { known.contains($0) } == TerminalType(name: "tmux-256color", notice: nil))
        let trueColor = try TerminalType.choose(for: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]) { known.contains($0) }
        #expect(trueColor.name == "xterm-direct")
        #expect(try TerminalType.choose(for: ["TERM": "tmux-256color", "COLORTERM": "24bit"]) { known.contains($0) }.name == "tmux-256color")
        #expect(throws: TerminalUnavailable.self) { try TerminalType.choose(for: ["TERM": "foot"]) { _ in false } }
    }

    @Test("in direct colour, palette entries above the basic eight are sent as RGB")
    func directColours() {
        let direct = ColorSupport(colorCount: 1 << 24, environment: [:])
        #expect(direct.depth == .direct)
        #expect(direct.number(for: .palette(196)) == 0xFF0000)
        #expect(direct.number(for: .palette(1)) == 1)
        #expect(direct.number(for: .rgb(0, 0, 3)) == 8)
        #expect(direct.number(for: .rgb(0x12, 0x34, 0x56)) == 0x123456)
    }

    @Test("~ expands to $HOME, not the account's home directory")
    func tilde() {
        let environment = ["HOME": "/tmp/somewhere else"]
        #expect(expandingTilde("~", environment: environment) == "/tmp/somewhere else")
        #expect(expandingTilde("~/pics/a.png", environment: environment) == "/tmp/somewhere else/pics/a.png")
        #expect(expandingTilde("~bob/a.png", environment: environment) == "~bob/a.png")
        #expect(expandingTilde("/a/~/b", environment: environment) == "/a/~/b")
        #expect(PathCompletion.expand(" ~/x ", environment: environment) == "/tmp/somewhere else/x")
    }

    @Test("a store that cannot be opened is not called a failed upgrade; the reason wraps; the help command names the store")
    func failureScreen() {
        var state = MigrationScreenState(storePath: "/tmp/my notes/n.sqlite")
        let reason = "the file is not a notes store: " + String(repeating: "word ", count: 40) + "END"
        state.failure = reason
        let text = state.render(width: 80, height: 24).lines.joined(separator: "\n")
        #expect(text.hasPrefix("Cannot open the store"))
        #expect(!text.contains("upgrade failed"))
        #expect(text.contains("END"))
        #expect(text.contains("uncloudnotes store info --store '/tmp/my notes/n.sqlite'"))
        #expect(text.contains("Nothing was changed."))
    }
}

@Suite("Never stale: changes other processes make to the store")
struct OutsideChangesTests {
    init() { DisplayWidth.configureLocale() }

    /// A second connection to the harness's store, as another process would have.
    private func otherBook(_ harness: AppHarness) throws -> NoteBook {
        try UnCloudNotesStack(storeURL: harness.stack.storeURL, versionName: harness.book.capabilities.version).open()
    }

    @Test("a note added elsewhere shows when the app is idle; the selection stays")
    func seesNewNotes() throws {
        let harness = try AppHarness()
        harness.press(.down)
        #expect(harness.screen().contains("›Party 🎉"))
        #expect(!harness.catchUp(), "nothing changed yet")
        try otherBook(harness).add(NoteDraft(title: "Added elsewhere", body: ""), date: Date(timeIntervalSinceReferenceDate: 900_000_000))
        #expect(harness.catchUp())
        let screen = harness.screen()
        #expect(screen.contains("Added elsewhere") && screen.contains("›Party 🎉") && screen.contains("5 notes"))
    }

    @Test("an image attached elsewhere does not make the next save fail, and is kept")
    func saveAfterOutsideAttach() throws {
        let harness = try AppHarness()
        harness.press(.character("e"))
        let other = try otherBook(harness)
        let trip = try #require(try other.noteIDs().first)
        try other.attach([try NoteImage(validating: AppHarness.png)], to: trip)
        harness.type(" plan")
        harness.press(.control("s"))
        #expect(harness.screen().contains("note saved"), "\(harness.screen())")
        let reader = try otherBook(harness)
        let saved = try #require(try reader.noteIDs().first)
        #expect(try reader.snapshot(of: saved).title == "Trip plan")
        #expect(try reader.snapshot(of: saved).attachments.count == 3)
    }

    @Test("a note changed elsewhere while edited: the draft is kept and saved as a copy")
    func conflictKeepsDraft() throws {
        let harness = try AppHarness()
        harness.press(.character("e"), .tab)
        harness.type(" My words.")
        let other = try otherBook(harness)
        let trip = try #require(try other.noteIDs().first)
        try other.update(trip, with: NoteDraft(title: "Trip", body: "Their words."))
        harness.press(.control("s"))
        #expect(harness.screen().contains("Another program changed or deleted this note"))
        harness.press(.character("y"))
        let reader = try otherBook(harness)
        let bodies = try reader.noteIDs().map { try reader.snapshot(of: $0).body }
        #expect(bodies.contains("Their words."))
        #expect(bodies.contains("Pack the tent, the stove and the maps. Leave early on Saturday. My words."))
    }
}
