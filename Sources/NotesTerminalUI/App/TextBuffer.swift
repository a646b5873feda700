/// Editable text with a cursor, counted in characters (grapheme clusters), so CJK, emoji and
/// combining marks are edited as the units a person sees.
public struct TextBuffer: Equatable, Sendable {
    public private(set) var characters: [Character] { didSet { unedited = nil } }
    /// Index in `characters` the next character goes before.
    public private(set) var cursor: Int
    public let allowsNewlines: Bool
    /// The text the buffer was made with, until an edit changes `characters`: `text` gives it
    /// back as it is, where making a string of a 10 MB body's characters again took half a second
    /// of a title-only save (issue 34).
    private var unedited: String?

    public init(_ text: String = "", allowsNewlines: Bool) {
        characters = Array(text)
        cursor = characters.count
        self.allowsNewlines = allowsNewlines
        unedited = text
    }

    public var text: String { unedited ?? String(characters) }

    /// Equal text, cursor and kind, however each came to be.
    public static func == (left: TextBuffer, right: TextBuffer) -> Bool {
        left.characters == right.characters && left.cursor == right.cursor && left.allowsNewlines == right.allowsNewlines
    }

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
