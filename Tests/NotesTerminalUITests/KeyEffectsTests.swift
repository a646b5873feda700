import Foundation
import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

/// Keys return effects; nothing changes in the store until a runner carries them out. These tests
/// send keys straight to the app, with no runner and no terminal.
@Suite("Keys return effects")
struct KeyEffectsTests {
    init() { DisplayWidth.configureLocale() }

    @Test("Ctrl-S returns the store's check, whose answer returns the draft to save over the note; the store keeps the old text until the effect runs")
    func saveIsAnEffect() throws {
        let harness = try AppHarness(notes: [("Groceries", "milk", 0)])
        let id = try #require(try harness.book.noteIDs().first)
        for key in [Key.character("e"), .tab] { #expect(harness.app.handle(key).isEmpty) }
        for character in " and eggs" { _ = harness.app.handle(.character(character)) }
        // Another program may have changed the note: the check is a read, carried out by the runner.
        let check = harness.app.handle(.control("s"))
        #expect(check == harness.app.catchUpWithStore())
        let checked = try #require(harness.runner.run(check[0]))
        let effects = harness.app.receive(checked)
        #expect(effects == [.save(NoteDraft(title: "Groceries", body: "milk and eggs"), over: id)])
        #expect(try harness.book.snapshot(of: id).body == "milk")
        #expect(harness.runner.perform(effects, on: harness.app).isEmpty)
        #expect(try harness.book.snapshot(of: id).body == "milk and eggs")
        #expect(harness.screen().contains("note saved"))
    }

    @Test("deleting asks, then returns the delete; an empty title returns nothing and says why")
    func deleteAndRefusals() throws {
        let harness = try AppHarness(notes: [("Groceries", "milk", 0)])
        let id = try #require(try harness.book.noteIDs().first)
        #expect(harness.app.handle(.character("d")).isEmpty)
        #expect(harness.app.handle(.character("y")) == [.delete(id)])
        #expect(try harness.book.count() == 1)

        _ = harness.app.handle(.character("n"))
        #expect(harness.app.handle(.control("s")).isEmpty)
        #expect(harness.screen().contains("empty titles are refused"))
    }

    @Test("attaching returns the typed path; v2's one image turns it into a question, and yes returns the replacement")
    func attachInV2() throws {
        let harness = try AppHarness(version: "v2", notes: [("Cat", "", 1)])
        let id = try #require(try harness.book.noteIDs().first)
        let image = try harness.folder.writeImage(named: "new.png", width: 10, height: 10)
        _ = harness.app.handle(.character("a"))
        for character in image.path { _ = harness.app.handle(.character(character)) }
        let effects = harness.app.handle(.enter)
        #expect(effects == [.attach(path: image.path, to: id, caption: NoteBook.newImageCaption, replacing: false)], "v2 has no captions to ask for")
        #expect(harness.runner.perform(effects, on: harness.app).isEmpty)
        #expect(harness.screen().contains("hold one image: replace the image of “Cat”? y/N"))
        #expect(harness.app.handle(.character("y")) == [.attach(path: image.path, to: id, caption: NoteBook.newImageCaption, replacing: true)])
    }

    @Test("v4: after the path the attach prompt asks for a caption, \"New Photo\" typed in; what is typed there is stored")
    func attachAsksCaption() throws {
        let harness = try AppHarness(notes: [("Beach", "sand and sea", 0)])
        let id = try #require(try harness.book.noteIDs().first)
        let image = try harness.folder.writeImage(named: "sea.png", width: 10, height: 10)
        _ = harness.app.handle(.character("a"))
        for character in image.path { _ = harness.app.handle(.character(character)) }
        #expect(harness.app.handle(.enter).isEmpty)
        #expect(harness.screen().contains("Caption: New Photo"))
        // Esc goes back to the path, as typed; Enter asks for the caption again.
        _ = harness.app.handle(.escape)
        #expect(harness.screen(200, 60).contains("Attach image (path): \(image.path)"))
        _ = harness.app.handle(.enter)
        _ = harness.app.handle(.control("u"))
        for character in "At the beach" { _ = harness.app.handle(.character(character)) }
        let effects = harness.app.handle(.enter)
        #expect(effects == [.attach(path: image.path, to: id, caption: "At the beach", replacing: false)])
        harness.runner.perform(effects, on: harness.app)
        #expect(try harness.book.snapshot(of: id).attachments.map(\.caption) == ["At the beach"])
        #expect(harness.screen().contains("Caption: At the beach"))
    }

    @Test("v4: a file refused after the caption was asked is named under the path prompt, the path kept")
    func refusedImageBackToPath() throws {
        let harness = try AppHarness(notes: [("Beach", "", 0)])
        let missing = harness.folder.url.appendingPathComponent("nope.png").path
        _ = harness.app.handle(.character("a"))
        for character in missing { _ = harness.app.handle(.character(character)) }
        _ = harness.app.handle(.enter)
        harness.runner.perform(harness.app.handle(.enter), on: harness.app)
        let screen = harness.screen(200, 60)
        #expect(screen.contains("Attach image (path): \(missing)") && screen.contains("no such file (nope.png)"), "\(screen)")
    }

    @Test("Ctrl-E in the body returns the body for the external editor; in the title it goes to the end of the line")
    func externalEditor() throws {
        let harness = try AppHarness(notes: [("Groceries", "milk", 0)])
        _ = harness.app.handle(.character("e"))
        _ = harness.app.handle(.control("a"))
        #expect(harness.app.handle(.control("e")).isEmpty)
        _ = harness.app.handle(.character("!"))
        #expect(harness.screen().contains("Title: Groceries!"))
        _ = harness.app.handle(.tab)
        #expect(harness.app.handle(.control("e")) == [.openEditor("milk")])
        #expect(harness.app.receive(.editorFailed("vi: not found")).isEmpty)
        #expect(harness.screen().contains("vi: not found"))
    }

    @Test("q in a note goes back to the list, as Esc does; in the list it quits")
    func qInNote() throws {
        let harness = try AppHarness(notes: [("Groceries", "milk", 0)])
        _ = harness.app.handle(.enter)
        #expect(harness.screen().contains("Esc q back"))
        #expect(harness.app.handle(.character("q")).isEmpty, "q in a note does not quit")
        #expect(harness.screen().contains("Enter open"), "back in the list")
        #expect(harness.app.handle(.character("q")) == [.quit])
    }

    @Test("the search field takes readline's keys; a key that changes no text searches nothing")
    func searchFieldKeys() throws {
        let harness = try AppHarness()
        _ = harness.app.handle(.character("/"))
        for character in "milk eggs" { _ = harness.app.handle(.character(character)) }
        _ = harness.app.handle(.control("w"))
        #expect(harness.screen().contains("Search: milk ▏"))
        _ = harness.app.handle(.control("a"))
        #expect(harness.app.handle(.control("a")).isEmpty)
        _ = harness.app.handle(.character("x"))
        #expect(harness.screen().contains("Search: x▏milk "))
        _ = harness.app.handle(.control("k"))
        #expect(harness.screen().contains("Search: x▏ "))
        _ = harness.app.handle(.control("e"))
        _ = harness.app.handle(.control("u"))
        // An empty search reads the whole list again at once.
        #expect(harness.runner.perform([], on: harness.app).isEmpty)
        #expect(harness.screen().contains("Search: ▏"))
    }
}
