import Foundation

/// The one thread swift-subprocess's side of every run works on (a task executor preference).
///
/// Why not the cooperative pool: callers are synchronous and block until their child has
/// started, and some call from the pool (tests run in parallel there); with every pool thread
/// so blocked, a start that needed the pool would never come. Its jobs never block: they spawn
/// (through swift-subprocess's own worker thread) and wait on continuations, so one thread
/// serves every run at once, and no thread is made per call.
final class RunnerThread: TaskExecutor, @unchecked Sendable {
    static let shared = RunnerThread()

    /// Unchecked: `jobs` is touched only with `ready` locked.
    private let ready = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "uncloudnotes-process-runner"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        ready.lock()
        jobs.append(job)
        ready.signal()
        ready.unlock()
    }

    private func serve() -> Never {
        while true {
            ready.lock()
            while jobs.isEmpty { ready.wait() }
            let job = jobs.removeFirst()
            ready.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
