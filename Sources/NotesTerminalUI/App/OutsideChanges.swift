import UnCloudNotesKit

extension NotesState {
    /// Called when the user is idle (and by Ctrl-S before saving): the check of the store's
    /// version, whose answer (`.storeChecked`) forgets what was read and reads the list again
    /// (the selection kept) when another process changed the store.
    func catchUpWithStore() -> [NotesEffect] {
        // No version known: launch's own check failed, so what was read since may predate another
        // program's change. A version no store has makes any version a change: all is read again.
        [.checkStore(knownVersion: knownExternalChangeToken ?? Int.min)]
    }

    /// Whether the note the editor started from was changed by someone else since: saving over
    /// it would lose their change.
    func changedElsewhere(_ state: EditorState) -> Bool {
        guard let id = state.noteID else { return false }
        guard let stored = snapshot(of: id) else { return true }
        return stored.title != state.originalTitle || stored.body != state.originalBody
    }
}
