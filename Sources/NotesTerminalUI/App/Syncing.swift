extension NotesState {
    /// Asks the background for a sync (`S`, or the config file's sync when the app opens).
    /// - Returns: false when one is under way already.
    mutating func requestSync() -> Bool {
        guard !syncLine.running else { return false }
        syncLine.running = true
        backgroundJobs.append(.sync)
        return true
    }
}

extension NotesApp {
    /// Starts a sync off the key loop (`S`, or the config file's sync when the app opens).
    /// - Returns: false when one is under way already.
    @discardableResult
    public func startSync() -> Bool {
        let started = state.requestSync()
        startBackgroundJobs()
        return started
    }

    /// Whether a sync is under way: quitting waits for it, so a push is not cut off.
    public var isSyncing: Bool { backgroundSync.isRunning }
}
