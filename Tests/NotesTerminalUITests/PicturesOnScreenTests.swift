@testable import NotesTerminalUI
import Testing

/// What each frame does to the pictures beside ncurses' text: drawn once, drawn again only when
/// something could have wiped them, removed the protocol's way.
@Suite("Pictures beside the text")
struct PicturesOnScreenTests {
    static func picture(_ id: UInt32, _ kind: PixelProtocol, bytes: String? = nil) -> EncodedPicture {
        EncodedPicture(id: id, pixelProtocol: kind, columns: 4, rows: 2, pixelSize: PixelSize(width: 40, height: 40), bytes: Array((bytes ?? "P\(id)").utf8))
    }

    static func frame(_ text: String = "", row: Int = 0, pictures: [(EncodedPicture, Int)]) -> CellBuffer {
        var buffer = CellBuffer(width: 20, height: 8)
        buffer.put(text, row: row, column: 0)
        for (picture, top) in pictures { buffer.placePicture(picture, row: top, column: 10) }
        return buffer
    }

    @Test("a key repeat that changes nothing near a sixel draws nothing; text beside it draws it again")
    func sixelRedrawnOnlyWhenItsRowsChange() {
        var screen = PicturesOnScreen()
        let sixel = Self.picture(1, .sixel)
        #expect(screen.update(to: Self.frame("a", row: 6, pictures: [(sixel, 2)])).placements.map(\.picture) == [sixel])
        // Text far below changes (the list's selection): nothing to do, no flicker.
        #expect(screen.update(to: Self.frame("b", row: 6, pictures: [(sixel, 2)])).isEmpty)
        // Text on the picture's rows changes: ncurses may have cleared through it.
        #expect(screen.update(to: Self.frame("c", row: 3, pictures: [(sixel, 2)])).placements.count == 1)
    }

    @Test("when ncurses keeps cells in place, text changing beside a sixel draws nothing; a change inside its rectangle draws it again")
    func sixelRedrawnOnlyWhenItsCellsChange() {
        var screen = PicturesOnScreen(cellsStayInPlace: true)
        let sixel = Self.picture(1, .sixel)
        #expect(screen.update(to: Self.frame("a", row: 6, pictures: [(sixel, 2)])).placements.map(\.picture) == [sixel])
        // The body scrolling beside it, on its rows: ncurses writes only the text's cells.
        #expect(screen.update(to: Self.frame("a longer line", row: 3, pictures: [(sixel, 2)])).isEmpty)
        #expect(screen.update(to: Self.frame("c", row: 3, pictures: [(sixel, 2)])).isEmpty)
        var covered = Self.frame("c", row: 3, pictures: [(sixel, 2)])
        covered.put("x", row: 3, column: 12)
        #expect(screen.update(to: covered).placements.count == 1, "ncurses wrote over its pixels")
    }

    @Test("guard cells at the first and last column of each row of a sixel or iTerm2 picture; none for kitty")
    func guardCells() {
        let frame = Self.frame(pictures: [(Self.picture(1, .sixel), 1), (Self.picture(2, .kitty), 5)])
        #expect(PicturesOnScreen.guardCells(of: frame).map { [$0.row, $0.column] } == [[1, 10], [1, 13], [2, 10], [2, 13]])
    }

    @Test("a sixel that goes away has its rows repainted; a kitty picture is deleted by id")
    func removal() {
        var screen = PicturesOnScreen()
        let sixel = Self.picture(1, .sixel), kitty = Self.picture(2, .kitty)
        _ = screen.update(to: Self.frame(pictures: [(sixel, 1)]))
        let sixelGone = screen.update(to: Self.frame(pictures: []))
        #expect(sixelGone.repaintRows == [1..<3])
        #expect(sixelGone.placements.isEmpty && sixelGone.deletions.isEmpty)
        _ = screen.update(to: Self.frame(pictures: [(kitty, 1)]))
        // The kitty picture moves down: deleted, placed again; text on its rows does not matter.
        let moved = screen.update(to: Self.frame("x", row: 4, pictures: [(kitty, 4)]))
        #expect(moved.deletions == [kitty])
        #expect(moved.placements.map(\.area.top) == [4])
        #expect(screen.update(to: Self.frame("y", row: 4, pictures: [(kitty, 4)])).isEmpty)
        #expect(screen.forgetAll() == [kitty])
        #expect(screen.update(to: Self.frame("y", row: 4, pictures: [(kitty, 4)])).placements.count == 1, "after a resize all are drawn again")
    }

    @Test("a prompt over the screen takes the pictures away, leaving blank cells")
    func overlays() {
        var buffer = Self.frame(pictures: [(Self.picture(1, .sixel), 1)])
        #expect(buffer.imageAreas.count == 1)
        buffer.removePictures()
        #expect(buffer.pictures.isEmpty)
        #expect(buffer.lines.allSatisfy { $0.isEmpty })
    }

    @Test("sequences save and restore the cursor around the picture; in tmux each is wrapped with the cursor's move, escapes doubled")
    func sequences() {
        let placed = PlacedPicture(picture: Self.picture(7, .kitty), area: Rect(top: 2, left: 5, width: 4, height: 2))
        #expect(String(decoding: PictureSequences.place(placed, passthrough: nil), as: UTF8.self) == "\u{1B}7\u{1B}[3;6HP7\u{1B}8")
        #expect(String(decoding: PictureSequences.delete(placed.picture, passthrough: nil), as: UTF8.self) == "\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\")
        #expect(PictureSequences.delete(Self.picture(8, .sixel), passthrough: nil).isEmpty)
        let wrapped = String(decoding: PictureSequences.place(placed, passthrough: TmuxPane(top: 1, left: 10)), as: UTF8.self)
        // tmux's own text goes out first (setting the scrolling region sends it), then the picture.
        #expect(wrapped == "\u{1B}7\u{1B}[r\u{1B}8" + "\u{1B}Ptmux;\u{1B}\u{1B}[4;16HP7\u{1B}\\")
        // tmux puts the outer cursor back after each passthrough: each piece moves it again.
        let pieces = PlacedPicture(picture: Self.picture(9, .kitty, bytes: "\u{1B}_Gm=1;AA\u{1B}\\\u{1B}_Gm=0;BB\u{1B}\\"), area: placed.area)
        #expect(String(decoding: PictureSequences.place(pieces, passthrough: TmuxPane(top: 0, left: 0)), as: UTF8.self)
            == "\u{1B}7\u{1B}[r\u{1B}8" + "\u{1B}Ptmux;\u{1B}\u{1B}[3;6H\u{1B}\u{1B}_Gm=1;AA\u{1B}\u{1B}\\\u{1B}\\" + "\u{1B}Ptmux;\u{1B}\u{1B}[3;6H\u{1B}\u{1B}_Gm=0;BB\u{1B}\u{1B}\\\u{1B}\\")
        let kittyEnd = PictureSequences.wrappedForTmux(Array("\u{1B}_Gm=0\u{1B}\\".utf8))
        #expect(String(decoding: kittyEnd, as: UTF8.self) == "\u{1B}Ptmux;\u{1B}\u{1B}_Gm=0\u{1B}\u{1B}\\\u{1B}\\", "a sequence's own ESC \\ stays inside its wrapping")
    }
}
