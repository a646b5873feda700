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
