import Foundation

/// Between a synchronous caller and its run on `RunnerThread`: the run reports the child's start
/// (or why it failed), the caller waits for the child's end itself and then releases the run,
/// which only then lets swift-subprocess reap the child. So the caller never waits for the
/// rest of swift-subprocess's run, which needs the cooperative pool (an unstructured `Task` in
/// its clean-up handler, `withUncancelledTask`, that no executor preference carries).
///
/// Unchecked: every field is touched only with `changed` locked.
final class Handoff: @unchecked Sendable {
    private enum Start {
        case waiting
        case started(pid_t)
        case failed(any Error)
    }

    private let changed = NSCondition()
    private var start = Start.waiting
    private var released = false
    private var release: CheckedContinuation<Void, Never>?

    /// Called by the run once the child exists.
    func started(_ pid: pid_t) {
        report(.started(pid))
    }

    /// Called by the run when it ends by an error; after a start the caller has its own answer.
    func failed(_ error: any Error) {
        report(.failed(error))
    }

    private func report(_ value: Start) {
        changed.lock()
        if case .waiting = start { start = value }
        changed.broadcast()
        changed.unlock()
    }

    /// The child's process id, once started; the run's error when it could not start.
    func waitForStart() -> Result<pid_t, any Error> {
        changed.lock()
        defer { changed.unlock() }
        while true {
            switch start {
            case .waiting: changed.wait()
            case .started(let pid): return .success(pid)
            case .failed(let error): return .failure(error)
            }
        }
    }

    /// Called by the caller once it has seen the child end (or gave up on it).
    func releaseRun() {
        changed.lock()
        released = true
        let waiting = release
        release = nil
        changed.unlock()
        waiting?.resume()
    }

    /// Suspends the run (not its thread) until `releaseRun`.
    func untilReleased() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            changed.lock()
            if released {
                changed.unlock()
                continuation.resume()
            } else {
                release = continuation
                changed.unlock()
            }
        }
    }
}
