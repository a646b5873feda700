import Foundation

/// What `strace -f -o FILE` recorded of a run: each thread's calls per system call, whether a
/// call was failed on purpose (`INJECTED`), and the signal that ended a thread, if any.
///
/// strace counts `inject=...:when=N` per thread, so the Nth call of every thread that makes N
/// calls fails: the largest count of one thread is the last N that fails anything.
public struct SyscallTrace: Sendable {
    /// Thread id -> system call name -> calls started.
    public private(set) var callsPerThread: [Int: [String: Int]] = [:]
    /// Lines strace marked `(INJECTED)`.
    public private(set) var injectedCalls: [String] = []
    /// `+++ killed by SIGILL +++` and the like: a thread or the process ended by a signal.
    public private(set) var killedBy: [String] = []
    /// The kills in `killedBy` but a SIGTERM that another process than the traced one sent to one
    /// of its own children: git stops its helpers so when it fails (the traced program sends no
    /// signals). Any other signal, and any that ends the traced program, is in here.
    public private(set) var unexpectedKills: [String] = []

    public init(contentsOf url: URL) throws {
        try self.init(text: String(decoding: Data(contentsOf: url), as: UTF8.self))
    }

    public init(text: String) {
        var traced: Int?
        // The process that sent each thread's last signal (`si_pid=` of `--- SIGTERM {...} ---`).
        var senders: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            // "5569  pwrite64(..." : strace pads the thread ids of a multi-threaded run.
            let fields = line.split(separator: " ", maxSplits: 1)
            guard fields.count == 2, let thread = Int(fields[0]) else { continue }
            traced = traced ?? thread
            let call = fields[1].drop { $0 == " " }
            if call.hasPrefix("--- SIG"), let range = call.range(of: "si_pid=") {
                senders[thread] = Int(call[range.upperBound...].prefix { $0.isNumber })
            }
            if call.hasPrefix("+++ killed by") {
                killedBy.append(String(line))
                let byOtherProcess = senders[thread].map { $0 != traced && $0 != 0 } ?? false
                if !(call.hasPrefix("+++ killed by SIGTERM") && byOtherProcess && thread != traced) { unexpectedKills.append(String(line)) }
                continue
            }
            if line.contains("(INJECTED)") { injectedCalls.append(String(line)) }
            // "<... openat resumed>" finishes a call already counted when it started.
            guard !call.hasPrefix("<..."), !call.hasPrefix("---"), !call.hasPrefix("+++"),
                  let open = call.firstIndex(of: "(") else { continue }
            callsPerThread[thread, default: [:]][String(call[..<open]), default: 0] += 1
        }
    }

    /// The most calls of the system call that one thread made.
    public func mostCallsInOneThread(of call: String) -> Int {
        callsPerThread.values.map { $0[call] ?? 0 }.max() ?? 0
    }

    /// Whether `strace -f` can trace programs here (it cannot in a container without ptrace).
    public static let straceWorks: Bool = {
        (try? SpawnedProcess.run(["strace", "-f", "-o", "/dev/null", "true"]))?.code == 0
    }()
}
