import UnCloudNotesKit

extension NotesApp {
    /// Called when the user is idle and before saving: when another process changed the store,
    /// forgets what was read and returns the effect reading the list again (the selection kept).
    public func catchUpWithStore() -> [NotesEffect] {
        do {
            let version = try book.storeVersion()
            guard version != knownStoreVersion else { return [] }
            knownStoreVersion = version
            book.forgetReadNotes()
            // Another process's change may be one to send, or a sync that sent everything.
            backgroundSync.refreshStatus()
            let effects = storeChanged()
            if case .detail(let state) = screen, snapshot(of: state.noteID) == nil {
                screen = .list
                message = "the note was deleted by another program"
            }
            return effects
        } catch {
            message = "cannot read the store again: \(error)"
            return []
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
