import CTestSpawn
import Foundation

/// Runs a program to completion with posix_spawn and waitpid, for the tests' children.
///
/// Not Foundation's `Process`: its wait can hang on Linux after the child has exited (seen with
/// several tests running children at once), and tmux's server outlives its client. The child
/// starts with no blocked and no ignored signals: test threads block nearly all of them, and a
/// child inheriting that mask ignores SIGTERM (a tmux server then survives `kill-server`).
public enum SpawnedProcess {
    public struct Status {
        /// The exit code, or the signal's number when `endedBySignal`.
        public var code: Int32
        public var endedBySignal: Bool
    }

    /// Runs `argv` (searched on PATH when `argv[0]` has no slash) with standard input, output and
    /// error opened from the given paths; `descriptors` gives the child some of them from open
    /// descriptors of this process instead (child's number: ours), e.g. a pipe's write end.
    public static func run(_ argv: [String], environment: [String: String]? = nil,
                           standardInput: String = "/dev/null", standardOutput: String = "/dev/null",
                           standardError: String = "/dev/null", descriptors: [Int32: Int32] = [:]) throws -> Status {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        for (child, ours) in descriptors {
            posix_spawn_file_actions_adddup2(&actions, ours, child)
        }
        let pid = try start(argv, actions: &actions, environment: environment ?? ProcessInfo.processInfo.environment, searchPath: true)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? Status(code: (status >> 8) & 0xff, endedBySignal: false) : Status(code: signal, endedBySignal: true)
    }

    /// Starts `argv` with these file actions, `environment`, and a clean signal state (nothing
    /// blocked, every handler the default); `newSession` makes it a session leader (so the first
    /// terminal it opens becomes its controlling terminal), `searchPath` looks `argv[0]` up in PATH.
    /// The child gets standard input, output and error only: every other descriptor is closed,
    /// so a pipe or lock another thread of the test process has open is not held by the child.
    static func start(_ argv: [String], actions: inout posix_spawn_file_actions_t, environment: [String: String],
                      newSession: Bool = false, searchPath: Bool = false) throws -> pid_t {
        let closing = ctestspawn_add_close_from(&actions, 3)
        guard closing == 0 else {
            throw SpawnError(description: "cannot run \(argv[0]): \(String(cString: strerror(closing)))")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // 0x80 is glibc's POSIX_SPAWN_SETSID, which Swift's Glibc module leaves out.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? 0x80 : 0))
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        var pid: pid_t = 0
        let started = searchPath
            ? posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, variables)
            : posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, variables)
        guard started == 0 else {
            throw SpawnError(description: "cannot run \(argv[0]): \(String(cString: strerror(started)))")
        }
        return pid
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }
}
