extension NotesApp {
    /// Starts a sync off the key loop (`S`, or the config file's sync when the app opens).
    /// - Returns: false when one is under way already.
    @discardableResult
    public func startSync() -> Bool {
        let started = backgroundSync.start()
        if started { syncLine.running = true }
        return started
    }

    /// Whether a sync is under way: quitting waits for it, so a push is not cut off.
    public var isSyncing: Bool { backgroundSync.isRunning }
}
