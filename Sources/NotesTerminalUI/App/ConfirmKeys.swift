import UnCloudNotesKit

extension NotesState.ConfirmState {
    /// The question's reducer: only y (or Y) says yes. - Returns: the screen after the answer
    /// and what the answer asks done.
    func answered(_ key: Key) -> (screen: NotesState.Screen, effects: [NotesEffect]) {
        guard case .yes = Self.keys.action(for: key) else { return (previous, []) }
        switch purpose {
        case .deleteNote(let id):
            return (.list, [.delete(id)])
        case .deleteAttachment(let id, let attachment):
            return (previous, [.deleteAttachment(attachment, of: id)])
        case .discardEdits(let editor):
            return (editor.noteID.map { .detail(NotesState.DetailState(noteID: $0)) } ?? .list, [])
        case .quitDiscarding:
            return (.confirm(self), [.quit])
        case .replaceImage(let id, let path):
            return (previous, [.attach(path: path, to: id, caption: NoteBook.newImageCaption, replacing: true)])
        case .saveAsCopy(let editor):
            // The draft was checked before the question was asked.
            return (previous, [.saveAsCopy((try? editor.draft()) ?? NoteDraft(title: editor.title.text, body: editor.body.text))])
        }
    }
}

extension NotesState {
    mutating func handleConfirm(_ key: Key, _ state: ConfirmState) -> [NotesEffect] {
        let answer = state.answered(key)
        screen = answer.screen
        return answer.effects
    }
}
