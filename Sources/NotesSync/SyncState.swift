import AgeEncryption
import Foundation
import UnCloudNotesKit

/// What one machine's mirror remembers between syncs, in `.git/uncloudnotes-sync.json` (it is
/// not the repository's content, so it is never pushed). Written atomically after each step
/// it records; a kill before that only makes the next sync redo work whose result is the same.
struct SyncState: Codable, Equatable {
    /// The store this mirror belongs to (its metadata UUID); another store starts afresh.
    var storeUUID: String?
    /// The newest history transaction whose changes are in the mirror.
    var exportedThrough: Int64?
    /// Set while sync changes the working tree (a merge, a reset): a kill meanwhile leaves
    /// half-written files that are sync's own, to be reset, not hand edits to keep.
    var workingTreeBusy = false
    /// When the last sync completed (pushed), for the app's status line.
    var lastSynced: Date?
    /// The machine name the last sync ran under (`--machine`), used when none is given.
    var machine: String?
    /// The age identity file given with `--identity`, used when none is given.
    var identityFile: String?
    /// The recipients this machine accepts: those it last pushed files encrypted for (nil before
    /// its first encrypted sync, which accepts the remote's list as it finds it). A key the
    /// remote lists beyond them stops sync until `recipients add` accepts it here.
    var acceptedRecipients: [String]?
    /// A change of the mirror's recipients (turning encryption on included) not yet pushed:
    /// every round re-encrypts every file until one pushes it.
    var recipientsChange: RecipientsChange?

    static func url(in gitDirectory: URL) -> URL { gitDirectory.appendingPathComponent("uncloudnotes-sync.json") }

    static func read(in gitDirectory: URL) throws(SyncError) -> SyncState {
        let url = url(in: gitDirectory)
        guard FileManager.default.fileExists(atPath: url.path) else { return SyncState() }
        do {
            return try JSONDecoder().decode(SyncState.self, from: Data(contentsOf: url))
        } catch {
            throw .file(path: url.path, error)
        }
    }

    func write(in gitDirectory: URL) throws(SyncError) {
        let url = Self.url(in: gitDirectory)
        do {
            try PrivateFiles.replace(url, with: try JSONEncoder().encode(self))
        } catch {
            throw .file(path: url.path, error)
        }
    }
}

/// Recipients to add to and remove from the set the mirror lists, applied to whichever set the
/// round reads (the remote's when it moved), so a recipient another machine added is kept.
struct RecipientsChange: Codable, Equatable {
    /// Turn a plain mirror into an encrypted one (for `add`).
    var encrypt = false
    var add: [String] = []
    var remove: [String] = []

    /// The recipients after the change, in the order listed, without repeats.
    func applied(to current: [AgeRecipient]) throws(SyncError) -> [AgeRecipient] {
        var recipients = current
        for text in add {
            let recipient = try Self.recipient(text)
            if !recipients.contains(recipient) { recipients.append(recipient) }
        }
        let removed = try remove.map { text throws(SyncError) in try Self.recipient(text) }
        return recipients.filter { !removed.contains($0) }
    }

    private static func recipient(_ text: String) throws(SyncError) -> AgeRecipient {
        do {
            return try AgeRecipient(text)
        } catch {
            throw .unreadableKeyFile(path: "the sync state's recipients", reason: .badRecipient(error))
        }
    }
}
