import UnCloudNotesKit

extension TextBuffer {
    /// Keys of a text field (`TextBuffer.keys`), with readline's Ctrl keys (the body's Ctrl-E is
    /// taken before: it opens `$EDITOR`). Lines are the field's lines, so in the body they work on
    /// the cursor's line.
    mutating func edit(_ key: Key) {
        switch Self.keys.action(for: key) {
        case .insert(let character): insert(character)
        case .deleteBackward: deleteBackward()
        case .deleteForward: deleteForward()
        case .left: moveLeft()
        case .right: moveRight()
        case .lineStart: moveToLineStart()
        case .lineEnd: moveToLineEnd()
        case .deleteToLineEnd: deleteToLineEnd()
        case .deleteToLineStart: deleteToLineStart()
        case .deleteWordBackward: deleteWordBackward()
        case nil: break
        }
    }
}
