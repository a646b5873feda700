import NotesTerminalUI
import Testing

@Suite("Cell buffer and display widths")
struct CellBufferTests {
    init() {
        DisplayWidth.configureLocale()
    }

    @Test("widths come from wcwidth: ASCII 1, CJK and emoji 2, combining marks 0",
          arguments: [("a", 1), ("笔", 2), ("記", 2), ("🙂", 2), ("e\u{301}", 1), ("❤️", 2), ("Ж", 1)])
    func characterWidths(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("a string's width is the sum of its characters' widths, not its count")
    func stringWidth() {
        let title = "笔记 notes 🙂"
        #expect(title.count == 10)
        #expect(DisplayWidth.of(title) == 13)
    }

    @Test("wide characters take two cells and are clipped whole at the edge")
    func wideCharactersClip() {
        var buffer = CellBuffer(width: 7, height: 2)
        let end = buffer.put("ab笔记本", row: 0, column: 0)
        #expect(end == 7)
        #expect(buffer.lines == ["ab笔记", ""])
        #expect(buffer[0, 3].content == .continuation)
        buffer.put("x", row: 1, column: 5)
        buffer.put("🙂🙂", row: 1, column: 2, maxColumn: 5)
        #expect(buffer.lines[1] == "  🙂 x")
    }

    @Test("overwriting half of a wide character blanks the other half")
    func overwritingHalves() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.put("記記", row: 0, column: 0)
        buffer.put("z", row: 0, column: 1)
        #expect(buffer.lines == [" z記"])
        buffer.put("y", row: 0, column: 2)
        #expect(buffer.lines == [" zy"])
    }

    @Test("text outside the buffer is ignored, styles are kept per cell")
    func clippingAndStyles() {
        var buffer = CellBuffer(width: 4, height: 1)
        buffer.put("hidden", row: 3, column: 0)
        buffer.put("ok", row: 0, column: -1, style: .bold)
        #expect(buffer.lines == ["ok"])
        #expect(buffer[0, 0].style == .bold)
        buffer.clear(row: 0, column: 0, width: 10, height: 10, style: .reverse)
        #expect(buffer.lines == [""])
        #expect(buffer[0, 3].style == .reverse)
    }

    @Test("an image's cells are placed clipped to the buffer, and the area they cover is recorded")
    func imageAreas() {
        var buffer = CellBuffer(width: 10, height: 4)
        let red = Cell(content: .character("▀"), foreground: .palette(1))
        buffer.placeImage(Array(repeating: Array(repeating: red, count: 3), count: 2), row: 1, column: 8)
        #expect(buffer.imageAreas == [Rect(top: 1, left: 8, width: 2, height: 2)])
        #expect(buffer.lines == ["", "        ▀▀", "        ▀▀", ""])
        #expect(buffer[2, 9].foreground == .palette(1))
        buffer.placeImage([], row: 0, column: 0)
        #expect(buffer.imageAreas.count == 1, "an empty preview covers nothing")
    }
}
