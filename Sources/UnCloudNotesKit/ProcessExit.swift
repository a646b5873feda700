import Foundation

/// Waits for a `Process` to end as soon as it does. Foundation's `waitUntilExit` on Linux runs
/// its run loop in 50 ms steps, which cost each git command of a sync, and the app's start-up
/// (asking tmux, compiling a terminfo entry), up to 50 ms; the termination handler is called as
/// soon as the child is reaped.
public final class ProcessExit: Sendable {
    private let exited = DispatchSemaphore(value: 0)

    /// Watches `process`; make it before `process.run()`, which it must precede.
    public init(of process: Process) {
        process.terminationHandler = { [exited] _ in exited.signal() }
    }

    /// Returns once the process has ended (its `terminationStatus` is then set).
    public func wait() {
        exited.wait()
    }
}
