import Foundation
import NotesSync
import Synchronization
import UnCloudNotesKit

/// `S` in the app: `uncloudnotes sync` off the key loop. The job opens its own book on the store
/// (the app's context is not thread-safe) and syncs with the mirror beside it; what it applies
/// reaches the list as any other process's change does (`catchUpWithStore`). One sync at a time.
/// The same queue reads the sync status (last sync, changes waiting) for the status line.
final class BackgroundSync: Sendable {
    typealias Outcome = SyncOutcome

    private struct Shared {
        var running = false
        var finished: Outcome?
        var status: SyncStatus?
        var statusRead = false
    }

    private let storeURL: URL
    private let version: String
    private let executor: any BackgroundExecutor
    private let shared = Mutex(Shared())
    private let stacks = Mutex<UnCloudNotesStack?>(nil)

    init(storeURL: URL, version: String, executor: any BackgroundExecutor) {
        self.storeURL = storeURL
        self.version = version
        self.executor = executor
    }

    /// Starts a sync. - Returns: false when one is still running.
    func start() -> Bool {
        let started = shared.withLock { shared in
            guard !shared.running else { return false }
            shared.running = true
            return true
        }
        if started { executor.run { [self] in finish(with: sync()) } }
        return started
    }

    var isRunning: Bool { shared.withLock(\.running) }

    /// Reads the sync status in the background (a sync reads it itself when it ends).
    func refreshStatus() {
        executor.run { [self] in
            // A store never synced has no mirror: nothing to open to say so.
            guard Synchronizer.mirrorExists(at: Synchronizer.defaultMirror(for: storeURL)) else { return publish(.some(nil)) }
            // An unreadable status shows as none: the status line is no place for an error.
            publish(try? withBook { book in try synchronizer(book).status() })
        }
    }

    private func publish(_ status: SyncStatus??) {
        shared.withLock { shared in
            shared.status = status ?? nil
            shared.statusRead = true
        }
    }

    /// The status read since the last call: `.some(nil)` when the store has no mirror.
    func takeStatus() -> SyncStatus?? {
        shared.withLock { shared in
            defer { shared.statusRead = false }
            return shared.statusRead ? .some(shared.status) : .none
        }
    }

    /// The outcome of the sync that finished since the last call, if one did.
    func takeFinished() -> Outcome? {
        shared.withLock { shared in
            defer { shared.finished = nil }
            return shared.finished
        }
    }

    private func sync() -> Outcome {
        do {
            return try withBook { book in
                let synchronizer = synchronizer(book)
                // The status line is refreshed when the status reads; the sync's own outcome is reported below either way.
                defer { publish(try? synchronizer.status()) }
                do {
                    return .success(try synchronizer.sync(remote: nil))
                } catch {
                    return .failure(SyncFailure(message: "\(error)"))
                }
            }
        } catch {
            return .failure(SyncFailure(message: "\(error)"))
        }
    }

    /// Opens a book through a stack made once (its model files are read and parsed once, not on
    /// every status read); the jobs run one at a time on the executor.
    private func withBook<Result>(_ work: (NoteBook) throws -> Result) throws -> Result {
        let stack = try stacks.withLock { made in
            if let made { return made }
            let stack = try UnCloudNotesStack(storeURL: storeURL, versionName: version)
            made = stack
            return stack
        }
        let book = try stack.open(creatingIfMissing: false)
        // Closing a store this sync opened after its work is saved or rolled back: a failed close loses nothing.
        defer { try? book.context.store.close() }
        return try work(book)
    }

    private func synchronizer(_ book: NoteBook) -> Synchronizer {
        Synchronizer(book: book, mirror: Synchronizer.defaultMirror(for: storeURL), machine: nil)
    }

    private func finish(with outcome: Outcome) {
        shared.withLock { shared in
            shared.running = false
            shared.finished = outcome
        }
    }
}
