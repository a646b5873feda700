import Synchronization

/// Lets another thread stop a migration between two batches; the migration then throws
/// `MigrationError.cancelled` and cleans up.
public final class MigrationCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    public init() {}

    public func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    public var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }
}
