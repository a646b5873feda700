import Foundation
import NotesTerminalUI
import Testing
import TestSupport

@Suite("Screens as text, without a terminal", .serialized)
struct ScreenSnapshotTests {
    init() { DisplayWidth.configureLocale() }

    @Test("the list at 80x24 and at 200x60, with CJK titles and image markers", arguments: [(80, 24), (200, 60)])
    func list(width: Int, height: Int) throws {
        let harness = try AppHarness()
        #expect(try Snapshot.matches(harness.settledRender(width: width, height: height), named: "list-\(width)x\(height)"))
    }

    @Test("a note with images at 80x24 and 200x60", arguments: [(80, 24), (200, 60)])
    func detail(width: Int, height: Int) throws {
        let harness = try AppHarness()
        harness.press(.home, .enter)
        #expect(try Snapshot.matches(harness.settledRender(width: width, height: height), named: "detail-\(width)x\(height)"))
    }

    @Test("a note's image in 256 colours is compared by its area and that it has colour, not by glyph")
    func detailInColour() throws {
        let harness = try AppHarness(colors: ColorSupport(depth: .indexed256))
        harness.press(.home, .enter)
        #expect(try Snapshot.matches(harness.settledRender(width: 80, height: 24), named: "detail-256-80x24"))
    }

    @Test("the editor wraps CJK text by display width and shows the cursor")
    func editor() throws {
        let harness = try AppHarness()
        harness.press(.down, .down, .character("e"), .tab)
        #expect(try Snapshot.matches(harness.render(width: 60, height: 16), named: "editor-cjk-60x16"))
    }

    @Test("a resize re-lays out the same state; below the minimum a clear message shows")
    func resize() throws {
        let harness = try AppHarness()
        harness.press(.down)
        let small = harness.screen(40, 10)
        #expect(small.contains("Terminal too small"))
        #expect(small.contains("need 50x12, have 40x10"))
        #expect(try Snapshot.matches(Snapshot.textLines(of: harness.settledRender(width: 80, height: 24)).joined(separator: "\n"),
                                     named: "list-after-resize-80x24"))
        #expect(harness.screen(80, 24).components(separatedBy: "\n").count == 24)
    }

    @Test("help lists the keys of the version: v1 has no image keys")
    func help() throws {
        let v1 = try AppHarness(version: "v1", notes: [("Only", "text", 0)])
        v1.press(.character("?"))
        #expect(!v1.screen(100, 30).contains("attach an image"))
        let v4 = try AppHarness()
        v4.press(.character("?"))
        let text = v4.screen(100, 60)
        #expect(text.contains("attach an image") && text.contains("caption"))
        #expect(try Snapshot.matches(v4.render(width: 100, height: 30), named: "help-v4-100x30"))
    }

    @Test("every line's display width fits the screen, whatever the text")
    func widthsFit() throws {
        let harness = try AppHarness()
        for (width, height) in [(50, 12), (80, 24), (133, 41), (200, 60)] {
            for line in harness.screen(width, height).components(separatedBy: "\n") {
                #expect(DisplayWidth.of(line) <= width, "\(width)x\(height): \(line)")
            }
        }
    }
}
