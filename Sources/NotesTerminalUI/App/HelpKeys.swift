extension NotesState.HelpState {
    /// The help's reducer: the arrows and pages scroll it (it is longer than a small terminal);
    /// nil for any other key, which goes back.
    func handled(_ key: Key, page: Int, maxScroll: Int) -> Self? {
        var next = self
        switch Self.keys.action(for: key) {
        case .scroll(let lines): next.scroll += lines
        case .page(let pages): next.scroll += pages * page
        case .top: next.scroll = 0
        case .bottom: next.scroll = maxScroll
        case .back, nil: return nil
        }
        next.scroll = min(max(0, next.scroll), maxScroll)
        return next
    }
}

extension NotesState {
    mutating func handleHelp(_ key: Key, _ state: HelpState) -> [NotesEffect] {
        screen = state.handled(key, page: max(1, helpRows), maxScroll: helpMaxScroll).map(Screen.help) ?? state.previous
        return []
    }
}
