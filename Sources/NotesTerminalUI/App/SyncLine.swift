import NotesSync

/// What the status line says of sync: a sync under way, the last sync's time (or its failure),
/// and whether the store holds changes no sync has sent. Read at launch, after each sync and
/// after other processes change the store; the app's own changes mark it waiting at once.
struct SyncLine: Equatable {
    /// From the mirror; nil while unread, or when the store has no mirror (never synced).
    var status: SyncStatus?
    var running = false
    /// The last sync of this session failed (its message said why).
    var failed = false

    /// The app changed the store: a store with a mirror now has changes to send.
    mutating func storeChangedHere() {
        status?.changesWaiting = true
    }

    /// The words for the status line; nil when there is nothing to say (no mirror, no sync).
    func text(_ dates: DateText) -> String? {
        if running { return "syncing…" }
        let last: String? = if failed { "sync failed" } else { status?.lastSynced.map { "synced \(dates($0))" } }
        guard status?.changesWaiting == true else { return last }
        return last.map { "\($0), changes waiting" } ?? "changes not synced yet"
    }
}
