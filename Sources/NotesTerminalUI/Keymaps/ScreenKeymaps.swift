extension ScreenLayout {
    /// A screen's keymap without its action type: what the hint bar shows, and what tests check
    /// against dispatch. `searching`: the list's search field is open (it takes the keys).
    func keymap(of screen: NotesState.Screen, searching: Bool) -> Keymap<Void> {
        switch screen {
        case .list where searching: ListState.searchKeys.map { _ in }
        case .list: listKeys.map { _ in }
        case .detail: detailKeys.map { _ in }
        case .editor(let state): state.keys.map { _ in }
        case .prompt(let state): NotesState.PromptState.keys(for: state.purpose, takesCaptions: supportsCaptions).map { _ in }
        case .confirm: NotesState.ConfirmState.keys.map { _ in }
        case .help: NotesState.HelpState.keys.map { _ in }
        case .tagPicker: NotesState.TagPickerState.keys.map { _ in }
        }
    }

    /// The sections of the help screen, in its order: the list, a note, the editor, text fields
    /// and the keys of every screen. (The prompts, questions and the tag picker say their keys
    /// in the hint bar.)
    var helpKeymaps: [Keymap<Void>] {
        [listKeys.map { _ in }, detailKeys.map { _ in },
         NotesState.EditorState.keys(hasTags: supportsTags, focus: .title).map { _ in },
         TextBuffer.keys.map { _ in }, NotesState.anywhereKeys.map { _ in }]
    }

    /// The help's lines: two short entries side by side where both fit, so the keys of a screen
    /// stay on one page; wrapped rather than cut on a narrow terminal.
    var helpLines: [String] {
        let width = contentArea.width
        let sections = helpKeymaps.flatMap { keymap in [keymap.helpLines[0]] + Self.sideBySide(Array(keymap.helpLines.dropFirst()), width: width) + [""] }
        let lines = ["Keys", ""] + sections + ["Running as \(versionLabel). Store: \(storePath)"]
        return lines.flatMap { TextWrapper.wrap(Array($0), width: width).map(\.text) }
    }

    /// Entries in the table's order, a pair on one line when the first fits the left half and
    /// the second the right half (which starts at the middle, so the pairs line up).
    static func sideBySide(_ entries: [String], width: Int) -> [String] {
        let half = width / 2
        var lines: [String] = []
        var index = 0
        while index < entries.count {
            let left = entries[index]
            if index + 1 < entries.count, DisplayWidth.of(left) + 2 <= half, half + DisplayWidth.of(entries[index + 1]) - 2 <= width {
                lines.append(left + String(repeating: " ", count: half - DisplayWidth.of(left)) + entries[index + 1].dropFirst(2))
                index += 2
            } else {
                lines.append(left)
                index += 1
            }
        }
        return lines
    }
}
