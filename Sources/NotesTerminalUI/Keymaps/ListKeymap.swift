/// What a key on the notes list does (`NotesState.handleList` carries it out).
enum ListAction: Equatable {
    case move(ListState.Move)
    case open, new, edit, delete, search, help, quit
    /// v5: pins, tags and the modified order (refused with a reason before).
    case pin, tags, sort
    case attach, undo, sync
    /// Esc: the search, then the tag filter, cleared.
    case clearFilters
}

/// What a key in the list's search field does (`ListState.typeInSearch`).
enum SearchAction {
    /// Enter: the field closes, its filter stays.
    case keep
    /// Esc: the search is cleared.
    case clear
    /// Any other key edits the query.
    case type(Key)
}

extension ScreenLayout {
    /// The list's keys; the hint bar shows the hinted ones that fit, in this order (at 80 columns
    /// up to `q quit`, then v5's `p pin` or, before v5, `a attach`).
    var listKeys: Keymap<ListAction> {
        Keymap("Notes list", [
            KeyBinding([(.up, .move(.up)), (.down, .move(.down)), (.character("j"), .move(.down)), (.character("k"), .move(.up))],
                       help: "move", hint: KeyHint("move", keys: 2)),
            KeyBinding([(.pageUp, .move(.pageUp)), (.pageDown, .move(.pageDown))], help: "a page up, down"),
            KeyBinding([(.home, .move(.first)), (.end, .move(.last)), (.character("g"), .move(.first)), (.character("G"), .move(.last))],
                       help: "first, last"),
            KeyBinding(.enter, does: .open, help: "open the note", hint: "open"),
            KeyBinding(.character("n"), does: .new, help: "new note", hint: "new"),
            KeyBinding(.character("e"), does: .edit, help: "edit", hint: "edit"),
            KeyBinding(.character("d"), does: .delete, help: "delete (asks first)", hint: "delete"),
            KeyBinding(.character("/"), does: .search,
                       help: "search titles\(supportsTags ? ", bodies and tags" : " and bodies") as you type; Esc clears", hint: "search"),
            KeyBinding(.character("?"), does: .help, help: "this help", hint: "help"),
            KeyBinding(.character("q"), does: .quit, help: "quit", hint: "quit"),
            KeyBinding(.character("p"), does: .pin, help: "pin or unpin (pinned notes come first, marked [pin])", hint: "pin")
                .listed(when: supportsTags),
            KeyBinding(.character("t"), does: .tags, help: "show the notes of one tag (each with its count); Esc shows all", hint: "tag")
                .listed(when: supportsTags),
            KeyBinding(.character("s"), does: .sort, help: "sort by date created or modified (the list shows that date)", hint: "sort")
                .listed(when: supportsTags),
            KeyBinding(.character("a"), does: .attach, help: "attach an image (path prompt: Tab completes, ~ works)", hint: "attach")
                .listed(when: supportsImages),
            KeyBinding(.character("u"), does: .undo, help: "undo the last delete (until the next change)", hint: "undo"),
            KeyBinding(.character("S"), does: .sync, help: "sync through git (set up by uncloudnotes sync --remote URL)"),
            KeyBinding(.escape, does: .clearFilters, help: supportsTags ? "clear the search, then the tag filter" : "clear the search"),
        ])
    }
}

extension ListState {
    /// The search field's keys, while it is open (every key the list's own table would take is typed).
    static var searchKeys: Keymap<SearchAction> {
        Keymap("Search", [
            KeyBinding(.enter, does: .keep, help: "keep the search and go back to the list", hint: "keep"),
            KeyBinding(.escape, does: .clear, help: "clear the search", hint: "clear"),
        ], otherKeys: OtherKeys("type", hint: "to search", action: SearchAction.type))
    }
}
