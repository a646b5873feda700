import Foundation
import ManagedStore
import Processes

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
    /// standard error too when `standardError` is given (else it is this program's). Standard
    /// input is /dev/null: a closed one (as a test runner may leave it) would be the first
    /// descriptor a child opens, which a tmux server then closes as it detaches. The child starts
    /// with no signal blocked (a tmux server that inherits a blocked SIGTERM outlives
    /// `kill-server`), as every child of the runner does.
    /// - Returns: the wall-clock seconds from start to exit.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], standardOutput: String = "/dev/null",
                    standardError: String? = nil) throws -> Double {
        let start = DispatchTime.now()
        let outcome = try ProcessRunner.run(Command(executable, arguments, output: .file(standardOutput),
                                                    error: standardError.map { .file($0) } ?? .inherited))
        let elapsed = seconds(since: start)
        guard outcome.termination == .exited(0) else {
            throw BenchError("\(([executable] + arguments).joined(separator: " ")) failed (\(outcome.termination))")
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
