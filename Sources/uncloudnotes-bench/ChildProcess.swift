import Foundation
import ManagedStore

/// Runs programs as children: this one again to measure a migration alone (the child reports its
/// own time, bytes written and peak memory), or another program timed from start to exit.
enum ChildProcess {
    /// What a measuring child printed (`key=value` lines).
    struct Report {
        var seconds: Double
        var bytesWritten: Int64
        var peakMemoryBytes: Int64
        /// How the stack made its backup (`hard link`, `clone`, `copy`), when it made one.
        var backup: String?
    }

    static func measure(_ arguments: [String]) throws -> Report {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-child-\(UUID().uuidString)")
        // Removing a temporary file is best effort.
        defer { try? FileManager.default.removeItem(at: output) }
        _ = try run(selfExecutable.path, arguments, standardOutput: output.path)
        // A child that printed nothing (or not UTF-8) is reported by the decoding below.
        let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        func value(_ key: String) -> Substring? {
            printed.split(separator: "\n").first { $0.hasPrefix(key + "=") }?.dropFirst(key.count + 1)
        }
        guard let seconds = value("elapsed").flatMap({ Double($0) }), let written = value("written").flatMap({ Int64($0) }),
              let peak = value("peak").flatMap({ Int64($0) }), peak > 0 else {
            throw BenchError("the child \(arguments.joined(separator: " ")) printed no time, bytes or memory")
        }
        return Report(seconds: seconds, bytesWritten: written, peakMemoryBytes: peak, backup: value("backup").map(String.init))
    }

    /// Prints what `measure` reads; called in the child around the measured work. `backup` says,
    /// after the work, how the stack made its backup, if it made one.
    static func printReport(measuring work: () throws -> Void, backup: () -> FileDuplication? = { nil }) throws {
        let writtenBefore = ProcessCounters.bytesWritten() ?? 0
        let start = DispatchTime.now()
        try work()
        let elapsed = seconds(since: start)
        let written = (ProcessCounters.bytesWritten() ?? 0) - writtenBefore
        print("elapsed=\(elapsed)\nwritten=\(written)\npeak=\(ProcessCounters.peakMemory() ?? 0)")
        if let method = backup() { print("backup=\(method.rawValue)") }
    }

    /// Runs a program to its end with standard output sent to a file (default /dev/null), and
    /// standard error too when `standardError` is given (else it is this program's).
    /// - Returns: the wall-clock seconds from start to exit.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], standardOutput: String = "/dev/null",
                    standardError: String? = nil) throws -> Double {
        let argv = [executable] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Standard input from /dev/null: a closed one (as a test runner may leave it) would be
        // the first descriptor a child opens, which a tmux server then closes as it detaches.
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let standardError { posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }
        // The child starts with no signal blocked, whatever this process inherited (a test
        // runner's Foundation Process blocks some): a tmux server that inherits a blocked
        // SIGTERM outlives `kill-server`, and a program in a pane must end on SIGHUP.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let start = DispatchTime.now()
        guard posix_spawn(&pid, executable, &actions, &attributes, cArguments, environ) == 0 else {
            throw BenchError("cannot start \(executable)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let elapsed = seconds(since: start)
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw BenchError("\(argv.joined(separator: " ")) failed (status \(status))")
        }
        return elapsed
    }

    static var selfExecutable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }

    /// A program built beside this one (`uncloudnotes`).
    static func sibling(_ name: String) throws -> URL {
        let url = selfExecutable.deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BenchError("\(url.path) is missing: build the package first (swift build -c release)")
        }
        return url
    }
}
