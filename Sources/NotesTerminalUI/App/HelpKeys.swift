extension NotesState.HelpState {
    /// The help's reducer: the arrows and pages scroll it (it is longer than a small terminal);
    /// nil for any other key, which goes back.
    func handled(_ key: Key, page: Int, maxScroll: Int) -> Self? {
        var next = self
        switch key {
        case .up, .character("k"): next.scroll -= 1
        case .down, .character("j"): next.scroll += 1
        case .pageUp: next.scroll -= page
        case .pageDown: next.scroll += page
        case .home, .character("g"): next.scroll = 0
        case .end, .character("G"): next.scroll = maxScroll
        default: return nil
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
