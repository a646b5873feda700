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

    @Test("Ctrl-S returns the draft to save over the note; the store keeps the old text until the effect runs")
    func saveIsAnEffect() throws {
        let harness = try AppHarness(notes: [("Groceries", "milk", 0)])
        let id = try #require(try harness.book.noteIDs().first)
        for key in [Key.character("e"), .tab] { #expect(harness.app.handle(key).isEmpty) }
        for character in " and eggs" { _ = harness.app.handle(.character(character)) }
        let effects = harness.app.handle(.control("s"))
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
        #expect(effects == [.attach(path: image.path, to: id, replacing: false)])
        #expect(harness.runner.perform(effects, on: harness.app).isEmpty)
        #expect(harness.screen().contains("hold one image: replace the image of “Cat”? y/N"))
        #expect(harness.app.handle(.character("y")) == [.attach(path: image.path, to: id, replacing: true)])
    }

    @Test("Ctrl-E returns the body for the external editor; its text comes back as an event")
    func externalEditor() throws {
        let harness = try AppHarness(notes: [("Groceries", "milk", 0)])
        _ = harness.app.handle(.character("e"))
        #expect(harness.app.handle(.control("e")) == [.openEditor("milk")])
        #expect(harness.app.receive(.editorFailed("vi: not found")).isEmpty)
        #expect(harness.screen().contains("vi: not found"))
    }
}
