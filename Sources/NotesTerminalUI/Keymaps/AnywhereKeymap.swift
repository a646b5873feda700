/// Keys every screen takes before its own (`NotesState.dispatch`).
enum AnywhereAction {
    case quit
    /// The terminal takes Ctrl-Z before it becomes a key (`TerminalScreen`): listed for the help.
    case suspend
}

extension NotesState {
    /// Keys that do the same on every screen.
    static var anywhereKeys: Keymap<AnywhereAction> {
        Keymap("Anywhere", [
            KeyBinding(.control("c"), does: .quit, help: "quit (asks first when a draft is unsaved)"),
            KeyBinding(.control("z"), does: .suspend, help: "suspend to the shell; fg comes back"),
        ])
    }
}
