/// A rectangle of cells on the screen.
struct Rect: Equatable {
    var top: Int
    var left: Int
    var width: Int
    var height: Int

    var bottom: Int { top + height }
    var right: Int { left + width }
}

extension CellBuffer {
    /// Writes text clipped to the rectangle's width on one of its rows.
    @discardableResult
    mutating func put(_ text: String, in rect: Rect, row: Int, indent: Int = 0, style: CellStyle = [],
                      foreground: TerminalColor? = nil) -> Int {
        guard row >= 0, row < rect.height else { return rect.left }
        return put(text, row: rect.top + row, column: rect.left + indent, style: style, foreground: foreground,
                   maxColumn: rect.right)
    }
}
