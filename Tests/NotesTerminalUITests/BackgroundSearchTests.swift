import Foundation
import ManagedStore
import Testing
import TestSupport
@testable import NotesTerminalUI
import UnCloudNotesKit

@Suite("Search runs off the key loop")
struct BackgroundSearchTests {
    init() { DisplayWidth.configureLocale() }

    @Test("typing shows the query at once; the matches arrive when the background search ends")
    func typingNeverWaits() throws {
        let harness = try AppHarness()
        harness.press(.character("/"))
        harness.type("tent")
        #expect(harness.searches.pendingCount == 4, "each keystroke hands its search over and returns")
        #expect(harness.screen().contains("Search: tent▏  (searching)"))
        #expect(harness.screen().contains("Groceries"), "the list stays as it was until the answer comes")
        harness.finishBackgroundWork()
        #expect(harness.screen().contains("Search: tent▏  (1 found)"))
        #expect(harness.screen().contains("Trip") && !harness.screen().contains("Groceries"))
        #expect(!harness.app.isWaitingForBackgroundWork)
    }

    @Test("a superseded search's answer is dropped, even when it finished first")
    func supersededAnswerDropped() throws {
        let harness = try AppHarness()
        harness.press(.character("/"))
        harness.type("milk")
        harness.searches.runAll()
        harness.type("x")
        #expect(!harness.takeBackgroundWork(), "the answer for “milk” is not the one asked for now")
        #expect(harness.screen().contains("(searching)") && harness.screen().contains("Trip"))
        harness.finishBackgroundWork()
        #expect(harness.screen().contains("Search: milkx▏  (0 found)"))
    }

    @Test("a save reads the list at once; an older background answer does not overwrite it")
    func saveSupersedesSearch() throws {
        let harness = try AppHarness()
        harness.press(.character("/"))
        harness.type("milk")
        harness.searches.runAll()
        harness.press(.enter, .character("n"))
        harness.type("Milk run")
        harness.press(.control("s"))
        // A new note clears the search, so it shows among all the notes.
        #expect(!harness.screen().contains("Search:") && harness.app.state.listScreen.notes.count == 5)
        harness.finishBackgroundWork()
        #expect(harness.app.state.listScreen.notes.count == 5, "the answer for “milk” came too late to count")
        #expect(harness.screen().contains("Milk run") && harness.screen().contains("Trip"))
    }

    @Test("Esc answers at once and cancels the search under way")
    func escapeCancels() throws {
        let harness = try AppHarness()
        harness.press(.character("/"))
        harness.type("milk")
        harness.press(.escape)
        harness.finishBackgroundWork()
        #expect(harness.screen().contains("Groceries") && harness.screen().contains("Trip"))
        #expect(!harness.screen().contains("Search:"))
    }

    @Test("the first screenful is sent ahead of every match, newest first")
    func firstPageFirst() throws {
        let notes = (0..<(BackgroundSearch.firstPageSize + 20)).map { ("Tent \($0)", "camping", 0) }
        let harness = try AppHarness(notes: notes)
        harness.press(.character("/"))
        harness.type("camping")
        harness.indexing.runAll()
        harness.searches.runAll()
        let deliveries = harness.app.backgroundSearch.takeDeliveries()
        #expect(deliveries.map(\.noteIDs.count) == [BackgroundSearch.firstPageSize, notes.count])
        #expect(deliveries.map(\.isComplete) == [false, true])
        let all = try harness.book.noteIDs()
        #expect(deliveries.last?.noteIDs == all)
        #expect(deliveries.first?.noteIDs == Array(all.prefix(BackgroundSearch.firstPageSize)))
    }

    @Test("a search's answer keeps the rows read, so a keystroke reads again none it shows")
    func answerKeepsRows() {
        let (one, two) = (NoteID(1), NoteID(2))
        var list = NoteList(ids: [one, two])
        let row = NoteRow(id: two, title: "Two", dateCreated: nil, imageCount: 0)
        list.remember([row])
        list.show([two])
        #expect(list.row(at: 0) == row && list.missingRows(in: 0..<1).isEmpty)
        list.show([one, two])
        #expect(list.missingRows(in: 0..<2) == [one] && list.row(at: 1) == row)
    }

    @Test("the first search builds the index in the background, once; the scan answers meanwhile")
    func indexBuiltInBackground() throws {
        let harness = try AppHarness()
        let indexFile = NoteSearchIndex.url(beside: harness.book.context.store)
        harness.press(.character("/"))
        harness.type("t")
        #expect(harness.indexing.pendingCount == 1, "one character is searched in the index too: the first key builds it")
        harness.type("en")
        #expect(harness.indexing.pendingCount == 1)
        harness.searches.runAll()
        harness.takeBackgroundWork()
        #expect(harness.screen().contains("(1 found)"), "the scan answered while the index job waits")
        harness.indexing.runAll()
        #expect(FileManager.default.fileExists(atPath: indexFile.path))
        harness.type("t")
        #expect(harness.indexing.pendingCount == 0, "the index is built once")
        harness.finishBackgroundWork()
        #expect(harness.screen().contains("Search: tent▏  (1 found)") && harness.screen().contains("Trip"))
    }
}

@Suite("Previews are decoded at their size")
struct PreviewDecodingTests {
    @Test("a 12-megapixel JPEG is decoded at the preview's size, not at its own")
    func decodedAtPreviewSize() throws {
        let folder = try TemporaryFolder()
        let jpeg = try folder.writeImage(named: "camera.jpg", width: 4000, height: 3000, format: "jpeg")
        let image = try NoteImage(contentsOf: jpeg)
        let decoded = try image.decoded(fittingWidth: 160, height: 120)
        #expect(decoded.width == 160 && decoded.height == 120)
        let cells = try ImagePreview.cells(for: image, columns: 40, rows: 12, colors: ColorSupport(depth: .none))
        #expect(cells.count <= 12 && cells.allSatisfy { $0.count <= 40 } && !cells.isEmpty)
    }
}
