import UnCloudNotesKit

extension NotesState.TagPickerState {
    /// What a key in the tag picker decided.
    enum Step {
        case choosing(NotesState.TagPickerState)
        /// Enter: the list shows the notes of this tag (nil: "All notes").
        case picked(String?)
        case back
    }

    /// The tag picker's reducer: ↑↓ choose, Enter picks ("All notes" clears the filter), Esc goes back.
    func handled(_ key: Key) -> Step {
        var next = self
        let last = tags.count
        switch Self.keys.action(for: key) {
        case .up: next.selected = max(0, selected - 1)
        case .down: next.selected = min(last, selected + 1)
        case .first: next.selected = 0
        case .last: next.selected = last
        case .pick: return .picked(selected == 0 ? nil : tags[selected - 1].name)
        case .back: return .back
        case nil: break
        }
        return .choosing(next)
    }
}

extension NotesState {
    mutating func handleTagPicker(_ key: Key, _ state: TagPickerState) -> [NotesEffect] {
        switch state.handled(key) {
        case .choosing(let next):
            screen = .tagPicker(next)
        case .back:
            screen = state.previous
        case .picked(let tag):
            listScreen.tagFilter = tag
            screen = state.previous
            listScreen.selected = 0
            return [reload(counting: false)]
        }
        return []
    }
}
