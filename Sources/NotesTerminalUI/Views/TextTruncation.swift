/// Text cut to a number of terminal columns (by display width, never by `String.count`).
extension CellBuffer {
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
