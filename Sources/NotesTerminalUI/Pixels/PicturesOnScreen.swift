/// Which pictures the terminal shows beside ncurses' text, and what each new frame needs done to
/// them: ncurses knows only cells, so a picture is drawn after the text refresh, and removed by
/// the protocol's delete (kitty) or by repainting its cells (sixel and iTerm2 pictures are pixels
/// in the cells, which ncurses believes blank). Pure, so the rules are tested without a terminal.
struct PicturesOnScreen {
    /// What one frame changes.
    struct Update: Equatable {
        /// Kitty pictures to delete by id, before the text is drawn.
        var deletions: [EncodedPicture] = []
        /// Rows ncurses must repaint whole, to wipe sixel and iTerm2 pictures that went away.
        var repaintRows: [Range<Int>] = []
        /// Pictures to draw after the text, in order.
        var placements: [PlacedPicture] = []

        var isEmpty: Bool { deletions.isEmpty && repaintRows.isEmpty && placements.isEmpty }
    }

    private(set) var shown: [PlacedPicture] = []
    /// The frame drawn last: a sixel or iTerm2 picture is drawn again only when ncurses may have
    /// written over it, so a key that changes nothing near it (a key repeat) never makes it flicker.
    private var lastFrame: CellBuffer?
    /// ncurses never scrolls rows nor shifts characters (`StillCellsTerminfo`), and `guardCells`
    /// keep it from clearing lines through pictures: then only a change inside a picture's
    /// rectangle reaches its cells. Otherwise any change of text on its rows may have.
    let cellsStayInPlace: Bool

    init(cellsStayInPlace: Bool = false) {
        self.cellsStayInPlace = cellsStayInPlace
    }

    /// What to do to show `frame`'s pictures after its text.
    mutating func update(to frame: CellBuffer) -> Update {
        var update = Update()
        let next = frame.pictures
        for gone in shown where !next.contains(gone) {
            if gone.picture.pixelProtocol == .kitty {
                update.deletions.append(gone.picture)
            } else {
                update.repaintRows.append(gone.area.top..<(gone.area.top + gone.area.height))
            }
        }
        for placed in next {
            let rows = placed.area.top..<(placed.area.top + placed.area.height)
            let isNew = !shown.contains(placed)
            let wiped = placed.picture.pixelProtocol != .kitty
                && (update.repaintRows.contains { $0.overlaps(rows) } || changed(cellsStayInPlace ? placed.area : wholeRows(rows, of: frame), in: frame))
            if isNew || wiped { update.placements.append(placed) }
        }
        shown = next
        lastFrame = frame
        return update
    }

    /// The terminal's screen is about to be cleared or left (a resize, the editor, Ctrl-Z, quit):
    /// every picture is forgotten, to be drawn again by the next frame. Returns the kitty
    /// pictures, which only a delete removes.
    mutating func forgetAll() -> [EncodedPicture] {
        defer {
            shown = []
            lastFrame = nil
        }
        return shown.map(\.picture).filter { $0.pixelProtocol == .kitty }
    }

    /// Whether any shown picture is pixels in cells (sixel, iTerm2), which only a repaint removes.
    var hasPicturesInCells: Bool { shown.contains { $0.picture.pixelProtocol != .kitty } }

    private func wholeRows(_ rows: Range<Int>, of frame: CellBuffer) -> Rect {
        Rect(top: rows.lowerBound, left: 0, width: frame.width, height: rows.count)
    }

    private func changed(_ area: Rect, in frame: CellBuffer) -> Bool {
        guard let lastFrame, lastFrame.width == frame.width, lastFrame.height == frame.height else { return true }
        for row in area.top..<(area.top + area.height) where row >= 0 && row < frame.height {
            for column in area.left..<(area.left + area.width) where column >= 0 && column < frame.width {
                if lastFrame[row, column] != frame[row, column] { return true }
            }
        }
        return false
    }

    /// Cells the terminal screen fills with a no-break space (drawn blank, but text to ncurses)
    /// when cells stay in place: ncurses clears a line to its end after its last non-blank cell
    /// and to its start before its first, through cells it believes blank; a guard at a picture
    /// row's first and last column keeps both outside the picture. They never change, so ncurses
    /// writes them once; the picture is drawn over them.
    static func guardCells(of frame: CellBuffer) -> [(row: Int, column: Int)] {
        frame.pictures.filter { $0.picture.pixelProtocol != .kitty }.flatMap { placed in
            (placed.area.top..<(placed.area.top + placed.area.height)).flatMap { row in
                Set([placed.area.left, placed.area.left + placed.area.width - 1]).sorted().map { (row: row, column: $0) }
            }
        }
    }
}

/// The bytes that draw and delete pictures, at absolute cells, leaving ncurses' cursor where it
/// was (saved and restored around them). Inside tmux every sequence is wrapped for passthrough on
/// its own (tmux limits one passthrough's length: a kitty picture is many), placed at the pane's
/// offset, each with the cursor's move in the same wrapping: after each passthrough tmux moves
/// the outer terminal's cursor back where it believes it is.
enum PictureSequences {
    static func place(_ placed: PlacedPicture, passthrough: TmuxPane?) -> [UInt8] {
        let row = placed.area.top + 1 + (passthrough?.top ?? 0)
        let column = placed.area.left + 1 + (passthrough?.left ?? 0)
        let move = Array("\u{1B}[\(row);\(column)H".utf8)
        guard passthrough != nil else { return Array("\u{1B}7".utf8) + move + placed.picture.bytes + Array("\u{1B}8".utf8) }
        return flushTmux + sequences(in: placed.picture.bytes).flatMap { wrappedWhole(move + $0) }
    }

    /// For tmux itself, before a passthrough: tmux sends a pane's text to the outer terminal in
    /// batches but a passthrough at once, so text written just before a picture (clearing
    /// "(loading the image)") could land after it, over it. Setting the scrolling region (to the
    /// whole pane, as ncurses keeps it) sends the batch first; the cursor it moves home is put back.
    static let flushTmux = Array("\u{1B}7\u{1B}[r\u{1B}8".utf8)

    /// Kitty's delete of the picture's placements and data; nothing for the other protocols.
    static func delete(_ picture: EncodedPicture, passthrough: TmuxPane?) -> [UInt8] {
        guard picture.pixelProtocol == .kitty else { return [] }
        let bytes = Array("\u{1B}_Ga=d,d=I,i=\(picture.id),q=2\u{1B}\\".utf8)
        return passthrough == nil ? bytes : wrappedForTmux(bytes)
    }

    /// Each escape sequence in `bytes` as tmux passes it on: `ESC P tmux ;` the sequence with its
    /// escapes doubled, `ESC \`.
    static func wrappedForTmux(_ bytes: [UInt8]) -> [UInt8] {
        sequences(in: bytes).flatMap(wrappedWhole)
    }

    /// `bytes` cut before each escape that starts a sequence (not the `ESC \` ending one).
    private static func sequences(in bytes: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            var end = index + 1
            while end < bytes.count, !(bytes[end] == 0x1B && (end + 1 >= bytes.count || bytes[end + 1] != UInt8(ascii: "\\"))) { end += 1 }
            pieces.append(Array(bytes[index..<end]))
            index = end
        }
        return pieces
    }

    /// One passthrough holding all of `bytes`.
    private static func wrappedWhole(_ bytes: [UInt8]) -> [UInt8] {
        Array("\u{1B}Ptmux;".utf8) + bytes.flatMap { $0 == 0x1B ? [0x1B, 0x1B] : [$0] } + Array("\u{1B}\\".utf8)
    }
}
