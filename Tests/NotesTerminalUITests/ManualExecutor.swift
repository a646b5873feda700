import Foundation
import NotesTerminalUI

/// Holds background jobs until the test runs them, on the test's own thread: the test decides
/// when a search finishes, and can prove that typing never waited for one.
final class ManualExecutor: BackgroundExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var queued: [@Sendable () -> Void] = []

    func run(_ job: @escaping @Sendable () -> Void) {
        lock.lock()
        queued.append(job)
        lock.unlock()
    }

    /// Jobs handed over and not yet run.
    var pendingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return queued.count
    }

    /// Runs every job handed over so far, in order, and any they hand over in turn.
    func runAll() {
        while let job = takeFirst() { job() }
    }

    private func takeFirst() -> (@Sendable () -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        return queued.isEmpty ? nil : queued.removeFirst()
    }
}
