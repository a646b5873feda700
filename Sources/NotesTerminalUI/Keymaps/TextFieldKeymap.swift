/// What a key in a text field does (`TextBuffer.edit`).
enum TextFieldAction {
    case insert(Character)
    case deleteBackward, deleteForward, left, right
    case lineStart, lineEnd, deleteToLineEnd, deleteToLineStart, deleteWordBackward
}

extension TextBuffer {
    /// Keys of every text field (title, body, search, prompts), readline's Ctrl keys among them;
    /// characters are typed. The editor's own keys come first (in the body Ctrl-E opens `$EDITOR`).
    static var keys: Keymap<TextFieldAction> {
        Keymap("Text fields (title, body, search, prompts), as in the shell", [
            KeyBinding([(.left, .left), (.right, .right)], help: "move the cursor"),
            KeyBinding(.home, .control("a"), does: .lineStart, help: "start of the line"),
            KeyBinding(.end, .control("e"), does: .lineEnd, help: "end of the line (in the body Ctrl-E opens $EDITOR)"),
            KeyBinding([(.backspace, .deleteBackward), (.delete, .deleteForward)], help: "delete before, under the cursor"),
            KeyBinding([(.control("k"), .deleteToLineEnd), (.control("u"), .deleteToLineStart)],
                       help: "delete to the end, to the start of the line"),
            KeyBinding(.control("w"), does: .deleteWordBackward, help: "delete the word before the cursor"),
        ], otherKeys: OtherKeys("characters") { key in
            if case .character(let character) = key { return .insert(character) }
            return nil
        })
    }
}
