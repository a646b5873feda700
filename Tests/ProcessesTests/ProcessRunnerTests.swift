import Foundation
import Processes
import Testing

@Suite("The process runner")
struct ProcessRunnerTests {
    @Test("captures output and error, with the environment and working directory given")
    func captures() throws {
        let outcome = try ProcessRunner.run(Command("/bin/sh", ["-c", "pwd; printf %s \"$GREETING\" >&2; exit 3"],
                                                    environment: ["GREETING": "hello"], workingDirectory: "/tmp",
                                                    output: .captured(), error: .captured()))
        #expect(outcome.termination == .exited(3))
        #expect(String(decoding: outcome.output, as: UTF8.self) == "/tmp\n")
        #expect(String(decoding: outcome.error, as: UTF8.self) == "hello")
    }

    @Test("streamed input reaches the child, which sees its end when the feed returns")
    func streams() throws {
        let outcome = try ProcessRunner.run(Command("/bin/sh", ["-c", "wc -c"], input: .streamed, output: .captured())) { input in
            input.write(Data(repeating: 65, count: 1 << 20))
            input.write("tail")
        }
        #expect(String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "\((1 << 20) + 4)")
    }

    @Test("a child that stops reading ends the input quietly; its exit status says so")
    func stoppedReading() throws {
        let outcome = try ProcessRunner.run(Command("/bin/sh", ["-c", "exit 7"], input: .streamed)) { input in
            for _ in 0..<16 { input.write(Data(repeating: 0, count: 1 << 18)) }
        }
        #expect(outcome.termination == .exited(7))
    }

    @Test("a program that cannot be executed is a failure to start, naming it")
    func cannotStart() {
        #expect {
            try ProcessRunner.run(Command("/nonexistent/program", []))
        } throws: { error in
            guard case ProcessFailure.cannotStart(let executable, _) = error else { return false }
            return executable == "/nonexistent/program" && "\(error)".contains("/nonexistent/program")
        }
    }

    @Test("a child killed by a signal is reported as such, with the shell's status")
    func signalled() throws {
        let outcome = try ProcessRunner.run(Command("/bin/sh", ["-c", "kill -TERM $$"]))
        #expect(outcome.termination == .signalled(SIGTERM))
        #expect(outcome.termination.status == 128 + SIGTERM)
    }

    @Test("a new session's child leads a session of its own; the caller does not wait for it")
    func newSession() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("runner-session-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // Removing the temporary FIFO is best effort.
        defer { try? FileManager.default.removeItem(at: fifo) }
        // The child writes its session id and its own pid into the FIFO, which this reads to its end.
        try ProcessRunner.start(Command("/bin/sh", ["-c", "{ ps -o sid= -p $$; echo $$; } > \"$1\"", "sh", fifo.path],
                                        terminal: .newSession))
        let handle = try FileHandle(forReadingFrom: fifo)
        let lines = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.count == 2 && lines[0] == lines[1])
    }

    @Test("the child starts with default signal dispositions and none blocked, whatever this process has")
    func defaultSignals() throws {
        var ignore = sigaction(), saved = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGUSR1, &ignore, &saved)
        defer { sigaction(SIGUSR1, &saved, nil) }
        let outcome = try ProcessRunner.run(Command("/bin/sh", ["-c", "grep -E '^(SigIgn|SigBlk)' /proc/self/status"], output: .captured()))
        let masks = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: "\t").last.map(String.init) ?? "" }
        // grep's own: SIGUSR1 (bit 10) neither ignored nor blocked.
        #expect(masks.count == 2)
        for mask in masks { #expect((UInt64(mask, radix: 16) ?? .max) & (1 << (SIGUSR1 - 1)) == 0) }
    }

    /// The design's risk: every call blocks its thread until its child ends, and tests call from
    /// the cooperative pool (one thread per core). With every pool thread so blocked, a runner
    /// that needed the pool to start or finish a child would never return.
    @Test("many synchronous runs at once from the cooperative pool, more than its threads, all finish",
          .timeLimit(.minutes(1)))
    func poolCannotStarve() async throws {
        let calls = ProcessInfo.processInfo.activeProcessorCount * 4
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<calls {
                group.addTask {
                    // Each child outlives the others' starts, so every pool thread is blocked at once.
                    try ProcessRunner.run(Command("/bin/sh", ["-c", "read line; exit $(( $1 % 100 ))", "sh", "\(index)"],
                                                  input: .streamed)) { $0.write("go\n") }.termination.status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.sorted() == (0..<Int32(calls)).map { $0 % 100 }.sorted())
    }
}
