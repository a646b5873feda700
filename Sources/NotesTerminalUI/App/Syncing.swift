extension NotesState {
    /// Asks the background for a sync (`S`, or the config file's sync when the app opens); none
    /// while one is under way already.
    mutating func requestSync() -> [NotesEffect] {
        guard !syncLine.running else { return [] }
        syncLine.running = true
        return [.background(.sync)]
    }
}

extension NotesApp {
    /// Whether a sync is under way: quitting waits for it, so a push is not cut off.
    public var isSyncing: Bool { backgroundSync.isRunning }
}
