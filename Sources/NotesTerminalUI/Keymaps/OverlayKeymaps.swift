/// What a key does to a y/N question (`ConfirmState.answered`).
enum ConfirmAction { case yes, no }

/// What a key on the help screen does (`HelpState.handled`).
enum HelpAction {
    /// By this many lines.
    case scroll(Int)
    /// By this many pages.
    case page(Int)
    case top, bottom, back
}

/// What a key in v5's tag picker does (`TagPickerState.handled`).
enum TagPickerAction { case up, down, first, last, pick, back }

extension NotesState.ConfirmState {
    /// Only y says yes.
    static var keys: Keymap<ConfirmAction> {
        Keymap("Question", [KeyBinding(.character("y"), .character("Y"), does: .yes, help: "yes", hint: KeyHint("yes", keys: 1))],
               otherKeys: OtherKeys("any other key", hint: "no") { _ in .no })
    }
}

extension NotesState.HelpState {
    /// The help scrolls (it is longer than a small terminal); any other key goes back.
    static var keys: Keymap<HelpAction> {
        Keymap("Help", [
            KeyBinding([(.up, .scroll(-1)), (.down, .scroll(1)), (.pageUp, .page(-1)), (.pageDown, .page(1)),
                        (.character("k"), .scroll(-1)), (.character("j"), .scroll(1))], help: "scroll", hint: KeyHint("scroll", keys: 4)),
            KeyBinding([(.home, .top), (.end, .bottom), (.character("g"), .top), (.character("G"), .bottom)], help: "top, bottom"),
        ], otherKeys: OtherKeys("any other key", hint: "back") { _ in .back })
    }
}

extension NotesState.TagPickerState {
    /// ↑↓ choose, Enter picks ("All notes" clears the filter), Esc goes back.
    static var keys: Keymap<TagPickerAction> {
        Keymap("Tags", [
            KeyBinding([(.up, .up), (.down, .down), (.character("k"), .up), (.character("j"), .down)],
                       help: "choose", hint: KeyHint("choose", keys: 2)),
            KeyBinding([(.home, .first), (.end, .last)], help: "first, last"),
            KeyBinding(.enter, does: .pick, help: "show the notes of the tag chosen", hint: "show its notes"),
            KeyBinding(.escape, .character("q"), .character("t"), does: .back, help: "back", hint: KeyHint("back", keys: 1)),
        ])
    }
}
