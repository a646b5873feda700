import Foundation
import Testing
import TestSupport

/// SQLite-style I/O error tests of the built program: strace fails the Nth `write`, `pwrite64`,
/// `fsync`, `fdatasync`, `rename` or `openat` of `store migrate` (v1 and v2 stores) and
/// `notes add`, for every N a thread reaches on a small store. Every run must end without a
/// signal (a Swift trap is a bug), leave the old store or the complete new one (read back with
/// SQL), and a rerun without faults must succeed.
///
/// N goes from 1 to the most calls one thread made in a run without faults (strace counts
/// `when=N` per thread, so that covers the Nth call of every thread); runs where nothing was
/// injected are counted and named in the test's output, never skipped unseen.
///
/// By default: every N of every listed call with EIO, and with ENOSPC for every call but
/// `openat` (a full disk does not refuse opening a file; EIO there is the case that trapped).
/// `UNCLOUDNOTES_FAULT_FULL=1` adds ENOSPC on `openat` too. The debug build is tested;
/// `UNCLOUDNOTES_FAULT_BINARY=.build/release/uncloudnotes` tests another build (the release one is
/// linked statically, and makes other calls).
@Suite("Fault injection (strace)", .serialized,
       .enabled(if: SyscallTrace.straceWorks, "skipped: strace cannot trace here (strace -f true failed): install strace and allow ptrace"))
struct FaultInjectionTests {
    @Test("a failed write, sync, rename or open never traps, never loses the store, and a rerun succeeds",
          arguments: FaultScenario.allCases)
    func everyFailedCall(scenario: FaultScenario) throws {
        let master = try TemporaryFolder()
        let store = try scenario.prepareStore(in: master)
        let before = try FaultStoreState(of: store)

        let counting = try TemporaryFolder()
        let countedStore = try FaultStoreState.copyFiles(of: store, into: counting)
        let traceFile = counting.url.appendingPathComponent("trace")
        let clean = try BuiltExecutable.run(scenario.arguments(store: countedStore), executable: Self.binary,
                                            launcher: ["strace", "-f", "-qq", "-o", traceFile.path,
                                                       "-e", "trace=\(FaultCase.calls.joined(separator: ","))", "--"])
        #expect(clean.exitCode == 0 && !clean.endedBySignal, "without faults: \(clean.standardError)")
        let counts = try SyscallTrace(contentsOf: traceFile)
        let cases = FaultCase.matrix(counts: counts, full: ProcessInfo.processInfo.environment["UNCLOUDNOTES_FAULT_FULL"] == "1")
        #expect(cases.count > 50, "too few calls were seen to inject: \(counts.callsPerThread)")

        let results = FaultResults()
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            results.record(cases[index], Result { try run(cases[index], scenario: scenario, master: store, before: before) })
        }
        let notReached = results.notReached
        print("\(scenario): \(cases.count) runs, \(cases.count - notReached.count) with the fault injected; "
              + "not reached in their run: \(notReached.isEmpty ? "none" : notReached.joined(separator: ", "))")
        let failures = results.failures
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) runs went wrong:\n\(failures.prefix(20).joined(separator: "\n"))")
    }

    /// The build under test: the debug build, or `UNCLOUDNOTES_FAULT_BINARY`.
    static let binary = ProcessInfo.processInfo.environment["UNCLOUDNOTES_FAULT_BINARY"].map { URL(fileURLWithPath: $0) }
        ?? BuiltExecutable.url

    @Test("a refused /proc/self/maps (where the Swift runtime finds the arguments) still runs the command asked for")
    func argumentsWithoutProcMaps() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("s.sqlite")
        let traceFile = folder.url.appendingPathComponent("trace")
        let run = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "t", "--body", "b"], executable: Self.binary, launcher: [
            "strace", "-f", "-qq", "-o", traceFile.path, "-P", "/proc/self/maps", "-e", "trace=openat",
            "-e", "inject=openat:error=EIO", "--",
        ])
        #expect(!(try SyscallTrace(contentsOf: traceFile).injectedCalls.isEmpty), "the program never opened /proc/self/maps: nothing was tested")
        #expect(run.exitCode == 0 && run.standardOutput == "added note 1\n", "\(run.standardError)")
    }

    @Test("the harness sees a program ended by a signal (strace passes the signal on, and names it)")
    func signalIsSeen() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("s.sqlite")
        let traceFile = folder.url.appendingPathComponent("trace")
        let run = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "t", "--body", "b"], launcher: [
            "strace", "-f", "-qq", "-o", traceFile.path, "-e", "trace=pwrite64", "-e", "inject=pwrite64:signal=SIGUSR1:when=1", "--",
        ])
        #expect(run.endedBySignal && run.exitCode == SIGUSR1)
        #expect(try SyscallTrace(contentsOf: traceFile).killedBy.contains { $0.contains("SIGUSR1") })
    }

    /// One run under the fault, its checks, and the rerun. Returns whether the fault was injected;
    /// throws a description of what went wrong.
    private func run(_ fault: FaultCase, scenario: FaultScenario, master: URL, before: FaultStoreState) throws -> Bool {
        let folder = try TemporaryFolder()
        let store = try FaultStoreState.copyFiles(of: master, into: folder)
        let traceFile = folder.url.appendingPathComponent("trace")
        let faulted = try BuiltExecutable.run(scenario.arguments(store: store), executable: Self.binary, launcher: [
            "strace", "-f", "-qq", "-o", traceFile.path, "-e", "trace=\(fault.call)",
            "-e", "inject=\(fault.call):error=\(fault.errorName):when=\(fault.n)", "--",
        ])
        let trace = try SyscallTrace(contentsOf: traceFile)
        guard !faulted.endedBySignal, trace.killedBy.isEmpty else {
            throw FaultFailure("\(fault): ended by signal \(faulted.exitCode) \(trace.killedBy); stderr: \(faulted.standardError)")
        }
        // 0 or 1 with its one line; 127 only when the dynamic loader could not open a library.
        let loaderRefused = faulted.exitCode == 127 && faulted.standardError.contains("error while loading shared libraries")
        guard faulted.exitCode == 0 || (faulted.exitCode == 1 && !faulted.standardError.isEmpty) || loaderRefused else {
            throw FaultFailure("\(fault): exit \(faulted.exitCode); stderr: \(faulted.standardError)")
        }
        let after = try FaultStoreState(of: store)
        guard scenario.isAcceptable(after, before: before, succeeded: faulted.exitCode == 0) else {
            throw FaultFailure("\(fault): exit \(faulted.exitCode), store left as \(after), was \(before); stderr: \(faulted.standardError)")
        }
        let rerun = try BuiltExecutable.run(scenario.rerunArguments(store: store), executable: Self.binary)
        let final = try FaultStoreState(of: store)
        guard rerun.exitCode == 0, !rerun.endedBySignal, scenario.isRerunResult(final, after: after) else {
            throw FaultFailure("\(fault): the rerun exited \(rerun.exitCode) leaving \(final); stderr: \(rerun.standardError)")
        }
        return !trace.injectedCalls.isEmpty
    }
}

/// One system call to fail, with which error, at which call of each thread.
struct FaultCase: Sendable, CustomStringConvertible {
    /// The calls that write, sync, rename and open files (x86-64 and arm64 names; those a run
    /// never makes get no cases).
    static let calls = ["write", "pwrite64", "fsync", "fdatasync", "rename", "renameat", "renameat2", "openat"]

    let call: String
    let errorName: String
    let n: Int

    var description: String { "\(call) #\(n) failing with \(errorName)" }

    static func matrix(counts: SyscallTrace, full: Bool) -> [FaultCase] {
        calls.flatMap { call in
            let errors = call == "openat" && !full ? ["EIO"] : ["ENOSPC", "EIO"]
            return errors.flatMap { error in
                (0..<counts.mostCallsInOneThread(of: call)).map { FaultCase(call: call, errorName: error, n: $0 + 1) }
            }
        }
    }
}

/// The commands under test and what each may leave behind.
enum FaultScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case migrateV1 = "store migrate of a v1 store"
    case migrateV2 = "store migrate of a v2 store"
    case addNote = "notes add to a v4 store"

    var testDescription: String { rawValue }

    /// The small store the scenario starts from.
    func prepareStore(in folder: TemporaryFolder) throws -> URL {
        switch self {
        case .migrateV1: return try ProjectFixtures.copyStore("v1", into: folder)
        case .migrateV2: return try ProjectFixtures.copyStore("v2", into: folder)
        case .addNote:
            let store = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
            for title in ["first", "second"] {
                let added = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", title, "--body", "\(title) body"])
                guard added.exitCode == 0 else { throw FaultFailure("cannot make the store: \(added.standardError)") }
            }
            return store
        }
    }

    func arguments(store: URL) -> [String] {
        switch self {
        case .migrateV1, .migrateV2: ["store", "migrate", store.path]
        case .addNote: ["--store", store.path, "notes", "add", "--title", "faulted", "--body", "added under a fault"]
        }
    }

    func rerunArguments(store: URL) -> [String] {
        switch self {
        case .migrateV1, .migrateV2: arguments(store: store)
        case .addNote: ["--store", store.path, "notes", "add", "--title", "rerun", "--body", "added after the fault"]
        }
    }

    /// The old store or the complete new one: a migration keeps every note, at the old version or
    /// the newest; an added note is there whole or not at all (and there when the run said so).
    func isAcceptable(_ state: FaultStoreState, before: FaultStoreState, succeeded: Bool) -> Bool {
        switch self {
        case .migrateV1, .migrateV2:
            return state.notes == before.notes
                && (state.version == FaultStoreState.newestVersion || (!succeeded && state.version == before.version))
        case .addNote:
            let added = before.notes + [["faulted", "added under a fault"]]
            return state.version == before.version && (state.notes == added || (!succeeded && state.notes == before.notes))
        }
    }

    func isRerunResult(_ state: FaultStoreState, after: FaultStoreState) -> Bool {
        switch self {
        case .migrateV1, .migrateV2: state.notes == after.notes && state.version == FaultStoreState.newestVersion
        case .addNote: state.notes == after.notes + [["rerun", "added after the fault"]] && state.version == after.version
        }
    }
}

/// Collects the runs' outcomes from the concurrent loop.
final class FaultResults: @unchecked Sendable {
    private let lock = NSLock()
    private var failed: [String] = []
    private var missed: [String] = []

    func record(_ fault: FaultCase, _ outcome: Result<Bool, Error>) {
        lock.lock()
        defer { lock.unlock() }
        switch outcome {
        case .success(true): break
        case .success(false): missed.append("\(fault.call) #\(fault.n) \(fault.errorName)")
        case .failure(let error): failed.append("\(error)")
        }
    }

    var failures: [String] { lock.withLock { failed.sorted() } }
    var notReached: [String] { lock.withLock { missed.sorted() } }
}

struct FaultFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
