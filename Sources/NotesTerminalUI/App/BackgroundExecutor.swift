import Foundation

/// Where the app's slow work runs: on a background queue in the terminal, by the test's own hand
/// in tests (so a test decides when work happens and never sleeps).
public protocol BackgroundExecutor: Sendable {
    func run(_ job: @escaping @Sendable () -> Void)
}

/// One serial queue: its jobs run in order, one at a time, off the key loop.
public struct SerialQueueExecutor: BackgroundExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func run(_ job: @escaping @Sendable () -> Void) {
        queue.async(execute: job)
    }
}
