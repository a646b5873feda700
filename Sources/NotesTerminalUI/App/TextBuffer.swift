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

    public mutating func replaceAll(with text: String) {
        characters = Array(text)
        cursor = characters.count
    }
}
