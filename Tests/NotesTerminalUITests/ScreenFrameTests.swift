import Foundation
import GRDB
import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

/// Drawing is a pure function of a frame read beforehand, and layout follows `resize` events.
@Suite("Frames and resize events")
struct ScreenFrameTests {
    init() { DisplayWidth.configureLocale() }

    @Test("a frame draws the same screen however often, without the store: drawing reads nothing")
    func renderReadsNothing() throws {
        let harness = try AppHarness()
        _ = harness.press(.resize(columns: 120, rows: 40), .enter)
        let frame = harness.app.frame()
        let before = frame.render()
        // The store loses every note; a frame already read does not notice, because it reads nothing.
        try DatabaseQueue(path: harness.stack.storeURL.path).write { db in try db.execute(sql: "DELETE FROM ZNOTE") }
        let after = frame.render()
        #expect(after.lines == before.lines)
        #expect(after.lines.joined().contains("Pack the tent"))
    }

    @Test("page keys move by the rows a resize event made room for, before anything is drawn")
    func pagingFollowsResize() throws {
        let notes = (0..<60).map { ("Note \($0)", "", 0) }
        let harness = try AppHarness(notes: notes)
        harness.press(.resize(columns: 80, rows: 24), .pageDown)
        // 24 rows: a header, the status and hint lines leave 21 rows, 10 for the list above the preview.
        #expect(harness.app.frame().render().lines.contains { $0.hasPrefix("›Note 49") })
        harness.press(.home, .resize(columns: 80, rows: 14), .pageDown)
        #expect(harness.app.frame().render().lines.contains { $0.hasPrefix("›Note 48") })
    }
}
