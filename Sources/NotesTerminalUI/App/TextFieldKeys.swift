import UnCloudNotesKit

extension TextBuffer {
    /// Keys of a text field, with readline's Ctrl keys (the body's Ctrl-E is taken before: it
    /// opens `$EDITOR`). Lines are the field's lines, so in the body they work on the cursor's line.
    mutating func edit(_ key: Key) {
        switch key {
        case .character(let character): insert(character)
        case .backspace: deleteBackward()
        case .delete: deleteForward()
        case .left: moveLeft()
        case .right: moveRight()
        case .home, .control("a"): moveToLineStart()
        case .end, .control("e"): moveToLineEnd()
        case .control("k"): deleteToLineEnd()
        case .control("u"): deleteToLineStart()
        case .control("w"): deleteWordBackward()
        default: break
        }
    }
}
