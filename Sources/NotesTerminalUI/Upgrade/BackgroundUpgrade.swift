import Foundation
import ManagedStore

/// The store's upgrade, run on a thread of its own so the migration screen stays alive: it shows
/// progress and the time taken, scrolls its log and answers Ctrl-C while the migration works.
/// The migration's events are queued here for the screen to take. While the screen asks whether
/// to cancel, the migration waits at its next event, so it cannot finish behind the question.
///
/// Unchecked: every mutable property is read and written with `condition` locked.
final class BackgroundUpgrade: @unchecked Sendable {
    let cancellation = MigrationCancellation()
    private let migrator: StoreMigrator
    /// Guards everything below; the screen waits on it for news, the migration while paused.
    private let condition = NSCondition()
    private var events: [MigrationEvent] = []
    private var outcome: Result<Void, any Error>?
    private var paused = false

    init(migrator: StoreMigrator) {
        self.migrator = migrator
    }

    /// Starts the migration (nothing happens when the store needs none).
    func start() {
        let thread = Thread { [self] in
            let result = Result { _ = try migrator.migrateIfNeeded(observer: { self.deliver($0) }, cancellation: cancellation) }
            condition.lock()
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        // The main thread's size: the migration may parse models and run policies on it.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The events since the last call, and the outcome once the migration is over; waits up to
    /// `timeout` seconds when there is nothing yet.
    func take(waitingUpTo timeout: TimeInterval) -> (events: [MigrationEvent], outcome: Result<Void, any Error>?) {
        condition.lock()
        defer { condition.unlock() }
        if events.isEmpty, outcome == nil, timeout > 0 { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
        let taken = events
        events = []
        return (taken, outcome)
    }

    /// The question is up: the migration stops at its next event until `resume`.
    func pause() {
        condition.lock()
        paused = true
        condition.unlock()
    }

    /// The answer: go on, or cancel (the engine then stops at its next check and cleans up).
    func resume(cancelling: Bool) {
        condition.lock()
        if cancelling { cancellation.cancel() }
        paused = false
        condition.broadcast()
        condition.unlock()
    }

    private func deliver(_ event: MigrationEvent) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        while paused { condition.wait() }
        condition.unlock()
    }
}
