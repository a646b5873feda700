/// What a key in the editor does beyond typing (`EditorState.handle`); keys it names that do
/// not apply to the field in focus (Ctrl-E outside the body) are typed into the field.
enum EditorAction {
    case save, leave
    /// Tab: the next field; in the body a tab.
    case nextField
    case previousField
    /// Enter: the next field; in the body a new line.
    case newLine
    /// Ctrl-E in the body: `$EDITOR`.
    case externalEditor
    /// In the body: by this many lines as wrapped on screen.
    case moveLines(Int)
    case bodyStart, bodyEnd
}

extension NotesState.EditorState {
    /// The editor's keys. The help reads them with the title in focus; the hint bar names the
    /// field Tab (or, in the body, Shift-Tab) goes to, and Ctrl-E only in the body.
    static func keys(hasTags: Bool, focus: Field) -> Keymap<EditorAction> {
        let inBody = focus == .body
        return Keymap("Editor", [
            KeyBinding(.control("s"), does: .save, help: "save", hint: "save"),
            KeyBinding(.escape, does: .leave, help: "cancel (asks before discarding)", hint: "cancel"),
            KeyBinding(.tab, does: .nextField,
                       help: hasTags ? "title, tags (comma-separated), body; in the body it inserts a tab"
                           : "from the title to the body; in the body it inserts a tab",
                       hint: inBody ? nil : KeyHint(focus == .title && hasTags ? "tags" : "body")),
            KeyBinding(.backTab, does: .previousField, help: "back a field", hint: inBody ? KeyHint(hasTags ? "tags" : "title") : nil),
            KeyBinding(.enter, does: .newLine, help: "the next field; in the body a new line"),
            KeyBinding(.control("e"), does: .externalEditor, help: "in the body: edit it in $VISUAL or $EDITOR, then come back",
                       hint: inBody ? "$EDITOR" : nil),
            KeyBinding([(.up, .moveLines(-1)), (.down, .moveLines(1)), (.pageUp, .moveLines(-10)), (.pageDown, .moveLines(10))],
                       help: "in the body: a line up, down, ten lines, as wrapped on screen"),
            KeyBinding([(.controlHome, .bodyStart), (.controlEnd, .bodyEnd)], help: "in the body: its first line, its end"),
        ])
    }

    /// The keys for the editor as it is now.
    var keys: Keymap<EditorAction> { Self.keys(hasTags: tags != nil, focus: focus) }
}
