import Foundation
import Synchronization

/// A system-call failure tests inject into a task, as a failing disk or a refused `chown` would
/// give: no other way makes `fdatasync` or root's `chown` fail on demand. Only tests set it
/// (`DurableFiles.$injectedFailure`).
final class InjectedFailure: Sendable {
    enum Call: Sendable { case sync, changeOwner }

    /// The `errno` the failing calls set.
    let code: Int32
    let calls: Set<Call>
    /// Calls of those kinds that succeed before every later one fails.
    let passing: Int
    private let made = Mutex(0)

    init(_ code: Int32, calls: Set<Call>, passing: Int = 0) {
        self.code = code
        self.calls = calls
        self.passing = passing
    }

    /// Calls of the injected kinds made so far, failed or not: a first run with every call
    /// passing counts them, so a second can fail exactly the last one.
    var callsMade: Int { made.withLock { $0 } }

    /// Whether this call fails (then `errno` is set).
    func fails(_ call: Call) -> Bool {
        guard calls.contains(call) else { return false }
        let fails = made.withLock { count in
            count += 1
            return count > passing
        }
        if fails { errno = code }
        return fails
    }
}
