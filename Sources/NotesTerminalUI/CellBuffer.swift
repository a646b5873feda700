/// Text attributes of a cell, independent of any terminal library.
public struct CellStyle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = CellStyle(rawValue: 1 << 0)
    public static let reverse = CellStyle(rawValue: 1 << 1)
    public static let dim = CellStyle(rawValue: 1 << 2)
    public static let underline = CellStyle(rawValue: 1 << 3)
}

/// A colour a cell is drawn in: an entry of the terminal's palette, or a true colour that the
/// terminal layer maps to the best colour the terminal has.
public enum TerminalColor: Hashable, Sendable {
    case palette(Int)
    case rgb(UInt8, UInt8, UInt8)
}

/// One terminal cell. A wide character occupies its cell and a continuation cell after it.
public struct Cell: Equatable, Sendable {
    public enum Content: Equatable, Sendable {
        case character(Character)
        /// The right half of the wide character in the cell before.
        case continuation
    }

    public var content: Content
    public var style: CellStyle
    public var foreground: TerminalColor?
    public var background: TerminalColor?

    public init(content: Content, style: CellStyle = [], foreground: TerminalColor? = nil, background: TerminalColor? = nil) {
        self.content = content
        self.style = style
        self.foreground = foreground
        self.background = background
    }

    public static let blank = Cell(content: .character(" "))
}

/// A grid of terminal cells that screens draw into.
///
/// Drawing never touches the terminal: the ncurses layer copies a finished buffer out, and tests
/// read it back as text. Positions are in columns, measured with `DisplayWidth`.
public struct CellBuffer: Equatable, Sendable {
    public let width: Int
    public let height: Int
    private var cells: [Cell]
    /// Where image previews were placed: tests compare these areas by size and colour, not by
    /// the glyphs libchafa chose.
    public private(set) var imageAreas: [Rect] = []
    /// Pictures drawn beside the text through a graphics protocol (their cells stay blank here).
    public private(set) var pictures: [PlacedPicture] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes text from (row, column) to the right, clipped at `maxColumn` (exclusive; default the
    /// buffer's edge). Each grapheme cluster takes the columns a terminal gives it; a wide one that
    /// does not fit whole is replaced by a space. Tabs become spaces to the next tab stop (counted
    /// from `column`), and control characters are shown visibly (`^[`), never sent to the terminal.
    /// - Returns: the column after the last one written.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = [],
                             foreground: TerminalColor? = nil, background: TerminalColor? = nil,
                             maxColumn: Int? = nil) -> Int {
        let limit = min(maxColumn ?? width, width)
        guard row >= 0, row < height else { return column }
        let start = max(0, column)
        var position = start
        func cell(_ content: Cell.Content) -> Cell {
            Cell(content: content, style: style, foreground: foreground, background: background)
        }
        for character in text {
            for shown in DisplayWidth.visible(character, atColumn: position - start) {
                let columns = DisplayWidth.of(shown)
                if columns == 0 { continue }
                if position + columns > limit {
                    if position < limit { set(row, position, cell(.character(" "))) }
                    return limit
                }
                set(row, position, cell(.character(shown)))
                if columns == 2 { set(row, position + 1, cell(.continuation)) }
                position += columns
            }
        }
        return position
    }

    /// Adds a style to the cell at (row, column), and to both halves of a wide character there,
    /// without changing what the cells show.
    public mutating func addStyle(_ extra: CellStyle, row: Int, column: Int) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        let first = cells[row * width + column].content == .continuation && column > 0 ? column - 1 : column
        cells[row * width + first].style.formUnion(extra)
        if first + 1 < width, cells[row * width + first + 1].content == .continuation {
            cells[row * width + first + 1].style.formUnion(extra)
        }
    }

    /// Fills a rectangle with blanks of a style.
    public mutating func clear(row: Int, column: Int, width clearWidth: Int, height clearHeight: Int,
                               style: CellStyle = []) {
        for y in max(0, row)..<min(height, row + clearHeight) {
            for x in max(0, column)..<min(width, column + clearWidth) {
                set(y, x, Cell(content: .character(" "), style: style))
            }
        }
    }

    /// Places an image preview's cells with their top left corner at (row, column), replacing
    /// what was there, and records the area they cover.
    public mutating func placeImage(_ image: [[Cell]], row: Int, column: Int) {
        let columns = image.map(\.count).max() ?? 0
        for (y, line) in image.enumerated() where row + y >= 0 && row + y < height {
            for (x, cell) in line.enumerated() where column + x >= 0 && column + x < width {
                set(row + y, column + x, cell)
            }
        }
        let top = max(0, row), left = max(0, column)
        let area = Rect(top: top, left: left, width: max(0, min(width, column + columns) - left),
                        height: max(0, min(height, row + image.count) - top))
        if area.width > 0, area.height > 0 { imageAreas.append(area) }
    }

    /// Places a picture with its top left corner at (row, column): its cells are left blank for
    /// the terminal to draw the pixels over, and it counts as an image area. A picture that does
    /// not fit whole is not placed (a cut picture cannot be drawn).
    public mutating func placePicture(_ picture: EncodedPicture, row: Int, column: Int) {
        let area = Rect(top: row, left: column, width: picture.columns, height: picture.rows)
        guard row >= 0, column >= 0, row + picture.rows <= height, column + picture.columns <= width else { return }
        clear(row: row, column: column, width: area.width, height: area.height)
        imageAreas.append(area)
        pictures.append(PlacedPicture(picture: picture, area: area))
    }

    /// Takes the pictures away, leaving their cells blank: something is drawn over them (a prompt).
    public mutating func removePictures() {
        pictures = []
    }

    /// The buffer as text, one line per row, trailing spaces removed: what a snapshot test compares.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                if case .character(let character) = self[row, column].content { line.append(character) }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Writing over half of a wide character blanks its other half, so no orphan halves remain.
    private mutating func set(_ row: Int, _ column: Int, _ cell: Cell) {
        let index = row * width + column
        if cells[index].content == .continuation, column > 0 {
            cells[index - 1] = Cell(content: .character(" "), style: cells[index - 1].style)
        }
        if column + 1 < width, cells[index + 1].content == .continuation, cell.content != .continuation {
            cells[index + 1] = Cell(content: .character(" "), style: cells[index + 1].style)
        }
        cells[index] = cell
    }
}
