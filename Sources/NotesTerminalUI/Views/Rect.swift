/// A rectangle of cells on the screen.
public struct Rect: Equatable, Sendable {
    public var top: Int
    public var left: Int
    public var width: Int
    public var height: Int

    public init(top: Int, left: Int, width: Int, height: Int) {
        self.top = top
        self.left = left
        self.width = width
        self.height = height
    }

    public var bottom: Int { top + height }
    public var right: Int { left + width }

    public func contains(row: Int, column: Int) -> Bool {
        row >= top && row < bottom && column >= left && column < right
    }

    /// The rectangle inside a border `cells` wide.
    public func inset(by cells: Int) -> Rect {
        Rect(top: top + cells, left: left + cells, width: max(0, width - 2 * cells), height: max(0, height - 2 * cells))
    }
}

extension CellBuffer {
    /// A box drawn on the rectangle's edge, with a title in its top line (cut to fit), so what is
    /// inside reads as one thing, apart from what is beside it.
    mutating func drawFrame(_ rect: Rect, title: String) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let inner = rect.width - 2
        put("┌" + String(repeating: "─", count: inner) + "┐", row: rect.top, column: rect.left, style: .dim)
        for row in rect.top + 1..<rect.bottom - 1 {
            put("│", row: row, column: rect.left, style: .dim)
            put("│", row: row, column: rect.right - 1, style: .dim)
        }
        put("└" + String(repeating: "─", count: inner) + "┘", row: rect.bottom - 1, column: rect.left, style: .dim)
        guard inner >= 5 else { return }
        put(" " + CellBuffer.truncate(title, to: inner - 3) + " ", row: rect.top, column: rect.left + 2, style: .bold)
    }

    /// Writes text clipped to the rectangle's width on one of its rows.
    @discardableResult
    mutating func put(_ text: String, in rect: Rect, row: Int, indent: Int = 0, style: CellStyle = [],
                      foreground: TerminalColor? = nil) -> Int {
        guard row >= 0, row < rect.height else { return rect.left }
        return put(text, row: rect.top + row, column: rect.left + indent, style: style, foreground: foreground,
                   maxColumn: rect.right)
    }
}
