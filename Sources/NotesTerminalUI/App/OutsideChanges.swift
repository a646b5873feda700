import UnCloudNotesKit

extension NotesApp {
    /// Called when the user is idle and before saving: when another process changed the store,
    /// reads it again, keeping the selection. Returns whether anything changed (to redraw).
    @discardableResult
    public func catchUpWithStore() -> Bool {
        do {
            let version = try book.storeVersion()
            guard version != knownStoreVersion else { return false }
            knownStoreVersion = version
            book.forgetReadNotes()
            try storeChanged()
            if case .detail(let state) = screen, snapshot(of: state.noteID) == nil {
                screen = .list
                message = "the note was deleted by another program"
            }
            return true
        } catch {
            message = "cannot read the store again: \(error)"
            return true
        }
    }

    /// Whether the note the editor started from was changed by someone else since: saving over
    /// it would lose their change.
    func changedElsewhere(_ state: EditorState) -> Bool {
        guard let id = state.noteID else { return false }
        guard let stored = snapshot(of: id) else { return true }
        return stored.title != state.originalTitle || stored.body != state.originalBody
    }
}
