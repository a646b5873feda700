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

    /// A path cut in the middle, so its file name stays readable.
    static func truncateMiddle(_ text: String, to columns: Int) -> String {
        guard DisplayWidth.of(text) > columns, columns > 8 else { return truncate(text, to: columns) }
        var tail = ""
        var used = 0
        for character in text.reversed() {
            let width = DisplayWidth.of(character)
            if used + width > (columns - 1) * 2 / 3 { break }
            tail.insert(character, at: tail.startIndex)
            used += width
        }
        return truncate(text, to: columns - 1 - used).dropLast() + "…" + tail
    }

    /// Text cut to a number of columns, with an ellipsis when cut.
    static func truncate(_ text: String, to columns: Int) -> String {
        guard DisplayWidth.of(text) > columns else { return text }
        guard columns > 1 else { return String(repeating: "…", count: max(0, columns)) }
        var result = ""
        var used = 0
        for character in text {
            let width = DisplayWidth.of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }
}
