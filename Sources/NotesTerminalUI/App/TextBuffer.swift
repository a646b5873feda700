/// Editable text with a cursor, counted in characters (grapheme clusters), so CJK, emoji and
/// combining marks are edited as the units a person sees.
public struct TextBuffer: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// Index in `characters` the next character goes before.
    public private(set) var cursor: Int
    public let allowsNewlines: Bool

    public init(_ text: String = "", allowsNewlines: Bool) {
        characters = Array(text)
        cursor = characters.count
        self.allowsNewlines = allowsNewlines
    }

    public var text: String { String(characters) }

    /// The text with a thin bar where the cursor is, for one-line fields drawn without a cursor.
    public var textWithCursor: String { String(characters[..<cursor]) + "▏" + String(characters[cursor...]) }

    public mutating func insert(_ character: Character) {
        if character == "\n" || character == "\r\n" {
            guard allowsNewlines else { return }
            characters.insert("\n", at: cursor)
        } else {
            characters.insert(character, at: cursor)
        }
        cursor += 1
    }

    public mutating func insert(_ text: String) {
        text.forEach { insert($0) }
    }

    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        cursor -= 1
        characters.remove(at: cursor)
    }

    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }

    public mutating func moveTo(_ index: Int) {
        cursor = min(max(0, index), characters.count)
    }

    /// Start of the current line.
    public mutating func moveToLineStart() {
        while cursor > 0, characters[cursor - 1] != "\n" { cursor -= 1 }
    }

    public mutating func moveToLineEnd() {
        while cursor < characters.count, characters[cursor] != "\n" { cursor += 1 }
    }

    /// Ctrl-K, as in readline: deletes from the cursor to the end of the line; at the end of a
    /// line it joins the next one, so pressing it again goes on deleting.
    public mutating func deleteToLineEnd() {
        var end = cursor
        while end < characters.count, characters[end] != "\n" { end += 1 }
        if end == cursor, end < characters.count { end += 1 }
        characters.removeSubrange(cursor..<end)
    }

    /// Ctrl-U, as in readline: deletes from the start of the line to the cursor.
    public mutating func deleteToLineStart() {
        let end = cursor
        moveToLineStart()
        characters.removeSubrange(cursor..<end)
    }

    /// Ctrl-W, as in readline: deletes the word before the cursor and the spaces after it (words
    /// are separated by whitespace, so a path or URL goes in one press).
    public mutating func deleteWordBackward() {
        let end = cursor
        while cursor > 0, characters[cursor - 1].isWhitespace, characters[cursor - 1] != "\n" { cursor -= 1 }
        while cursor > 0, !characters[cursor - 1].isWhitespace { cursor -= 1 }
        if cursor == end, cursor > 0 { cursor -= 1 }
        characters.removeSubrange(cursor..<end)
    }

    public mutating func replaceAll(with text: String) {
        characters = Array(text)
        cursor = characters.count
    }
}

/// One screen line of wrapped text: which characters it shows.
public struct WrappedLine: Equatable, Sendable {
    public var start: Int
    public var end: Int
    public var text: String
}

/// Wraps text to a width in terminal columns (measured with `DisplayWidth`, tabs to their stops
/// from the start of each screen line), at spaces when it can and anywhere when a word is longer
/// than the line.
public enum TextWrapper {
    public static func wrap(_ characters: [Character], width: Int) -> [WrappedLine] {
        let width = max(1, width)
        var lines: [WrappedLine] = []
        var start = 0
        var index = 0
        var columns = 0
        var lastSpace: Int?
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                lines.append(WrappedLine(start: start, end: index, text: String(characters[start..<index])))
                index += 1
                start = index
                columns = 0
                lastSpace = nil
                continue
            }
            let characterWidth = DisplayWidth.advance(of: character, atColumn: columns)
            if columns + characterWidth > width, index > start {
                let breakAt = lastSpace.map { $0 + 1 } ?? index
                lines.append(WrappedLine(start: start, end: breakAt, text: String(characters[start..<breakAt])))
                start = breakAt
                index = breakAt
                columns = 0
                lastSpace = nil
                continue
            }
            if character == " " { lastSpace = index }
            columns += characterWidth
            index += 1
        }
        lines.append(WrappedLine(start: start, end: characters.count, text: String(characters[start..<characters.count])))
        return lines
    }

    /// The wrapped line holding the cursor, and the cursor's column in it.
    public static func locate(_ cursor: Int, in lines: [WrappedLine], characters: [Character]) -> (line: Int, column: Int) {
        var lineIndex = lines.count - 1
        for (index, line) in lines.enumerated() where cursor >= line.start && cursor <= line.end {
            lineIndex = index
            if cursor < line.end || index == lines.count - 1 || lines[index + 1].start > cursor { break }
        }
        let line = lines[max(0, lineIndex)]
        let column = DisplayWidth.of(String(characters[line.start..<min(cursor, line.end)]))
        return (max(0, lineIndex), column)
    }

    /// The character index at a column of a wrapped line (for moving up and down).
    public static func index(atColumn column: Int, of line: WrappedLine, characters: [Character]) -> Int {
        var columns = 0
        var index = line.start
        while index < line.end, characters[index] != "\n" {
            let next = columns + DisplayWidth.advance(of: characters[index], atColumn: columns)
            if next > column { break }
            columns = next
            index += 1
        }
        return index
    }
}
