import UnCloudNotesKit

extension NotesState {
    mutating func handlePrompt(_ key: Key, _ state: PromptState) -> [NotesEffect] {
        var state = state
        switch key {
        case .escape:
            screen = state.previous
            return []
        case .enter:
            return submit(state)
        case .tab:
            // The folder is listed by the runner; its answer completes the text (`.pathCompleted`).
            if case .attachImage = state.purpose { return [.completePath(state.input.text)] }
        default:
            edit(&state.input, key)
            state.error = nil
            state.completions = []
        }
        screen = .prompt(state)
        return []
    }

    /// The prompt stays up while its effect runs, so a refused file can be named under it.
    private mutating func submit(_ state: PromptState) -> [NotesEffect] {
        var state = state
        switch state.purpose {
        case .attachImage(let id):
            let path = PathCompletion.expand(state.input.text)
            guard !path.isEmpty else {
                state.error = "type the path of an image file"
                screen = .prompt(state)
                return []
            }
            guard supportsCaptions else { return [.attach(path: path, to: id, caption: NoteBook.newImageCaption, replacing: false)] }
            screen = .prompt(PromptState(purpose: .newImageCaption(id, path: path),
                                         input: TextBuffer(NoteBook.newImageCaption, allowsNewlines: false), previous: .prompt(state)))
            return []
        case .newImageCaption(let id, let path):
            return [.attach(path: path, to: id, caption: state.input.text, replacing: false)]
        case .caption(let id, let attachment):
            screen = state.previous
            return [.setCaption(state.input.text, of: attachment.id, note: id)]
        }
    }
}
