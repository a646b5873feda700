import UnCloudNotesKit

extension NotesState.PromptState {
    /// The prompt's reducer. - Returns: the screen after the key and what it asks done. The
    /// prompt stays up while its effect runs, so a refused file can be named under it.
    func handled(_ key: Key, takesCaptions: Bool) -> (screen: NotesState.Screen, effects: [NotesEffect]) {
        var next = self
        switch Self.keys(for: purpose, takesCaptions: takesCaptions).action(for: key) {
        case .cancel:
            return (previous, [])
        case .submit:
            return submitted(takesCaptions: takesCaptions)
        case .complete:
            // The folder is listed by the runner; its answer completes the text (`completed`).
            return (.prompt(self), [.completePath(input.text)])
        case .edit(let key):
            next.input.edit(key)
            next.error = nil
            next.completions = []
        case nil:
            break
        }
        return (.prompt(next), [])
    }

    private func submitted(takesCaptions: Bool) -> (screen: NotesState.Screen, effects: [NotesEffect]) {
        switch purpose {
        case .attachImage(let id):
            let path = PathCompletion.expand(input.text)
            guard !path.isEmpty else {
                var next = self
                next.error = "type the path of an image file"
                return (.prompt(next), [])
            }
            guard takesCaptions else { return (.prompt(self), [.attach(path: path, to: id, caption: NoteBook.newImageCaption, replacing: false)]) }
            return (.prompt(Self(purpose: .newImageCaption(id, path: path), input: TextBuffer(NoteBook.newImageCaption, allowsNewlines: false),
                                 previous: .prompt(self))), [])
        case .newImageCaption(let id, let path):
            return (.prompt(self), [.attach(path: path, to: id, caption: input.text, replacing: false)])
        case .caption(let id, let attachment):
            return (previous, [.setCaption(input.text, of: attachment.id, note: id)])
        }
    }

    /// The attach prompt with the path completed as Tab asked (`.pathCompleted`); nil when the
    /// text changed meanwhile or the prompt is another.
    func completed(typed: String, text: String, candidates: [String]) -> Self? {
        guard case .attachImage = purpose, input.text == typed else { return nil }
        var next = self
        next.input.replaceAll(with: text)
        next.completions = candidates
        next.error = candidates.isEmpty ? nil : error
        return next
    }
}

extension NotesState {
    mutating func handlePrompt(_ key: Key, _ state: PromptState) -> [NotesEffect] {
        let step = state.handled(key, takesCaptions: supportsCaptions)
        screen = step.screen
        return step.effects
    }
}
