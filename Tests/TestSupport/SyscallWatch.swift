import CTestSpawn
import Foundation

/// The system calls this test process makes while a piece of code runs, seen by `strace`
/// attached to every thread of it: for asserting what a library call costs in calls (fsyncs),
/// which no timing could say reliably.
public enum SyscallWatch {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `body` with strace attached to this process, tracing `calls` with file paths
    /// (`-y`), and returns strace's lines (each thread's, this process's other work included:
    /// filter them by path). strace is known to be attached before `body` starts, from its own
    /// word on stderr, and has detached (SIGINT) before the lines are read.
    public static func lines(of calls: [String], during body: () throws -> Void) throws -> [String] {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("trace")
        // Where Yama allows tracing only one's descendants, strace (a child) needs leave to trace its parent.
        let leave = ctestspawn_allow_any_tracer()
        guard leave == 0 || leave == EINVAL else {
            throw Failure(description: "cannot let strace trace this process: \(String(cString: strerror(leave)))")
        }
        defer { if leave == 0 { _ = ctestspawn_forbid_tracers() } }
        var ends: [Int32] = [0, 0]
        // Close-on-exec: a child another test starts meanwhile must not hold the write end open.
        let piped = ctestspawn_pipe_closing_on_exec(&ends)
        guard piped == 0 else { throw Failure(description: "no pipe for strace's messages: \(String(cString: strerror(piped)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        let strace: pid_t
        do {
            strace = try SpawnedProcess.start(["strace", "-f", "-y", "-e", "trace=\(calls.joined(separator: ","))", "-o", output.path,
                                               "-p", String(getpid())], actions: &actions,
                                              environment: ProcessInfo.processInfo.environment, searchPath: true)
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[1])
        let messages = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        // "strace: Process N attached with M threads": every thread is traced from here on.
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("attached") {
            let more = messages.availableData
            guard !more.isEmpty else {
                waitForExit(strace)
                throw Failure(description: "strace ended before attaching: \(String(decoding: said, as: UTF8.self))")
            }
            said += more
        }
        var failure: Error?
        do { try body() } catch { failure = error }
        kill(strace, SIGINT)
        waitForExit(strace)
        if let failure { throw failure }
        return String(decoding: try Data(contentsOf: output), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static func waitForExit(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
