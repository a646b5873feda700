extension NotesState {
    /// The help scrolls with the arrows and pages (it is longer than a small terminal); any other
    /// key goes back.
    mutating func handleHelp(_ key: Key, _ state: HelpState) -> [NotesEffect] {
        var state = state
        switch key {
        case .up, .character("k"): state.scroll -= 1
        case .down, .character("j"): state.scroll += 1
        case .pageUp: state.scroll -= max(1, helpRows)
        case .pageDown: state.scroll += max(1, helpRows)
        case .home, .character("g"): state.scroll = 0
        case .end, .character("G"): state.scroll = helpMaxScroll
        default:
            screen = state.previous
            return []
        }
        state.scroll = min(max(0, state.scroll), helpMaxScroll)
        screen = .help(state)
        return []
    }
}
