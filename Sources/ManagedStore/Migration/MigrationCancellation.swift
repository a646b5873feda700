import Synchronization

/// Lets another thread stop a migration between two batches; the migration then throws
/// `MigrationError.cancelled` and cleans up.
public final class MigrationCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// A token not yet cancelled; hand it to the migration and keep it to cancel from elsewhere.
    public init() {}

    /// Asks the migration to stop at its next batch; safe from any thread, and more than once.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Whether `cancel()` was called; the migration checks it between batches.
    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}
