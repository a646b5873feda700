import Foundation

/// Where a store stands with its mirror, for the app's status line: when it last synced, and
/// whether it holds changes no sync has sent yet.
public struct SyncStatus: Equatable, Sendable {
    /// When a sync of this store last completed (its push), on this machine; nil before one.
    public var lastSynced: Date?
    /// Whether the store has changes since the last export (its own, not sync's).
    public var changesWaiting: Bool

    public init(lastSynced: Date?, changesWaiting: Bool) {
        self.lastSynced = lastSynced
        self.changesWaiting = changesWaiting
    }
}

extension Synchronizer {
    /// Whether `folder` holds a mirror (a git repository): a store without one was never synced,
    /// which needs no store opened to tell.
    public static func mirrorExists(at folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path)
    }

    /// The store's sync status; nil when it has no mirror yet (it was never synced). Reads the
    /// mirror's state file and the store's history since the last export; runs no git.
    public func status() throws(SyncError) -> SyncStatus? {
        guard Self.mirrorExists(at: mirrorFolder) else { return nil }
        let state = try SyncState.read(in: mirrorFolder.appendingPathComponent(".git"))
        let context = syncContext()
        // A mirror last used by another store has sent nothing of this one.
        guard state.storeUUID == context.store.metadata.storeUUID else { return SyncStatus(lastSynced: nil, changesWaiting: true) }
        let changes = try storeCall { try LocalChanges(after: state.exportedThrough, in: context) }
        return SyncStatus(lastSynced: state.lastSynced, changesWaiting: !changes.isEmpty)
    }
}
