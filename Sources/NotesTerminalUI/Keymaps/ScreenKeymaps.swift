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

    /// The help's lines, wrapped rather than cut on a narrow terminal.
    var helpLines: [String] {
        let lines = ["Keys", ""] + helpKeymaps.flatMap { $0.helpLines + [""] } + ["Running as \(versionLabel). Store: \(storePath)"]
        return lines.flatMap { TextWrapper.wrap(Array($0), width: contentArea.width).map(\.text) }
    }
}
