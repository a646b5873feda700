import Foundation
@testable import NotesTerminalUI
import Testing
import UnCloudNotesKit

@Suite("A 10 MB note: the screens lay out what they show, not the note")
struct BigNoteTests {
    init() { DisplayWidth.configureLocale() }

    /// Numbered paragraphs (with wide characters) to about `megabytes` MB, then a last line.
    static func paragraphs(megabytes: Int) -> String {
        let sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, 日本語の文章も少し. "
        var text = ""
        var number = 0
        while text.utf8.count < megabytes << 20 {
            text += "¶\(number) " + String(repeating: sentence, count: 8) + "\n"
            number += 1
        }
        return text + "The very last line."
    }

    /// Characters the app measured so far, laying out note bodies.
    private func measured(_ harness: AppHarness) -> Int {
        harness.app.state.bodyLayouts.measuredCharacters
    }

    /// A few blocks' worth: what a screen of any note may lay out, however long the note.
    private let aFewBlocks = 6 * TextLayout<String>.defaultBlockSize

    @Test("opening, scrolling and jumping to the end of a 10 MB note lay out a few blocks; End shows its last line")
    func detailViewOfTenMegabytes() throws {
        let harness = try AppHarness(notes: [("Small", "short", 0), ("Big", Self.paragraphs(megabytes: 10), 0)])
        #expect(harness.screen(100, 30).contains("¶0 Lorem ipsum"), "the list's preview shows the body's start")
        harness.press(.enter)
        let top = harness.screen()
        #expect(top.contains("¶0 Lorem ipsum") && top.contains("↓ more") && !top.contains("↑ more"))
        harness.press(.down, .pageDown, .pageDown)
        #expect(harness.screen().contains("↑ more"))
        harness.press(.end)
        let end = harness.screen()
        let lastRow = end.components(separatedBy: "\n")[21]
        #expect(lastRow.hasPrefix("The very last line."), "the last line is on the text's last row: \(end)")
        #expect(end.contains("↑ more") && !end.contains("↓ more"))
        harness.press(.down)
        #expect(harness.screen() == end, "scrolling stops at the end")
        harness.press(.up)
        #expect(!harness.screen().contains("The very last line.") && harness.screen().contains("↓ more"))
        harness.press(.character("g"))
        #expect(harness.screen() == top)
        let afterAll = measured(harness)
        #expect(afterAll < aFewBlocks, "measured \(afterAll) characters of \(10 << 20)")
        harness.press(.end, .home, .end)
        _ = harness.screen()
        #expect(measured(harness) == afterAll, "what was laid out once is kept")
    }

    @Test("one 10 MB line of wide characters: End shows its end, every row whole and within the width")
    func oneLineOfWideCharacters() throws {
        let body = String(repeating: "日本", count: 5 << 20 / 3) + "終わり"
        let harness = try AppHarness(notes: [("Wide", body, 0)])
        harness.press(.enter, .end)
        let rows = harness.screen(81, 24).components(separatedBy: "\n")
        let text = rows[3..<22]
        #expect(text.joined().hasSuffix("日本終わり"), "\(rows)")
        #expect(text.allSatisfy { DisplayWidth.of($0) <= 81 })
        // Whole characters only: no row holds half of one or a blank where one was cut.
        #expect(text.dropFirst().allSatisfy { $0.allSatisfy { "日本終わり".contains($0) } }, "\(rows)")
        #expect(measured(harness) < aFewBlocks)
    }

    @Test("a resize keeps the detail view on the same text, wrapped to the new width")
    func resizeKeepsThePlace() throws {
        let harness = try AppHarness(notes: [("Big", Self.paragraphs(megabytes: 1), 0)])
        harness.press(.enter)
        _ = harness.screen()
        for _ in 0..<30 { harness.press(.pageDown) }
        let narrow = harness.screen(60, 24)
        let paragraph = try #require(narrow.components(separatedBy: "¶").dropFirst().first?.prefix { $0.isNumber })
        #expect(harness.screen(120, 24).contains("¶\(paragraph) "))
    }

    @Test("typing in the editor changes the body in place: a 1 MB body is not copied for each character")
    func typingEditsInPlace() throws {
        let harness = try AppHarness(notes: [("Big", Self.paragraphs(megabytes: 1), 0)])
        harness.press(.character("e"), .tab)
        func bodyStorage() -> UnsafeRawPointer? {
            guard case .editor(let state) = harness.app.state.screen else { return nil }
            return state.body.characters.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        // The first character may move the body to room for more; the next ones go into that room.
        harness.type("a")
        let storage = try #require(bodyStorage())
        for character in "bcdef" {
            harness.type(String(character))
            _ = harness.screen()
            #expect(bodyStorage() == storage, "typing \(character) copied the body")
        }
        #expect(harness.screen().contains("The very last line.abcdef"))
    }

    @Test("editing a 1 MB note: the cursor starts at the end, which shows; ↑ and PgUp move up through it")
    func editorOfAMegabyte() throws {
        let harness = try AppHarness(notes: [("Big", Self.paragraphs(megabytes: 1), 0)])
        harness.press(.character("e"), .tab)
        let end = harness.screen()
        #expect(end.contains("The very last line."))
        harness.press(.pageUp, .pageUp, .up)
        let moved = harness.screen()
        #expect(!moved.contains("The very last line.") && moved.contains("Lorem ipsum"))
        harness.type("X")
        harness.press(.control("s"))
        let note = try #require(try harness.book.noteIDs().first)
        let saved = try harness.book.snapshot(of: note).body
        #expect(saved.hasSuffix("The very last line.") && saved.contains("X") && saved.utf8.count == Self.paragraphs(megabytes: 1).utf8.count + 1)
    }
}
