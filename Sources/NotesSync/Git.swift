import Foundation
import UnCloudNotesKit

/// The system's `git`, run as a subprocess in one repository. git keeps the credentials (ssh
/// keys, credential helpers); it is never asked to prompt, so a sync never hangs on one.
struct Git: Sendable {
    let directory: URL
    /// The name commits are made under: the machine's, so conflict copies can say where the
    /// other version came from.
    let machine: String

    init(directory: URL, machine: String) {
        self.directory = directory
        self.machine = machine
    }

    /// The git program, found on `PATH` once: starting it through `/usr/bin/env` cost another
    /// program start for each of a sync's two dozen commands.
    static let executable: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("git") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Runs git with `arguments`; its standard output, or `GitFailure` on a non-zero exit.
    @discardableResult
    func run(_ arguments: [String], allowing allowed: Set<Int32> = [0]) throws(SyncError) -> String {
        try checked(arguments, output(arguments), allowing: allowed)
    }

    /// Runs git with `arguments`, `input` writing its standard input piece by piece on this
    /// thread (so a first export streams every note without holding them all). A git that
    /// stops reading early ends the input quietly; its exit status says why.
    @discardableResult
    func run(_ arguments: [String], streaming input: (GitInput) throws(SyncError) -> Void) throws(SyncError) -> String {
        try checked(arguments, spawn(arguments, writesInput: true, input: input), allowing: [0])
    }

    private func checked(_ arguments: [String], _ result: (status: Int32, standardOutput: Data, standardError: String),
                         allowing allowed: Set<Int32>) throws(SyncError) -> String {
        guard allowed.contains(result.status) else {
            throw .git(GitFailure(arguments: arguments, status: result.status, standardError: result.standardError))
        }
        return String(decoding: result.standardOutput, as: UTF8.self)
    }

    /// Runs git and returns everything, whatever its exit status.
    func output(_ arguments: [String]) throws(SyncError) -> (status: Int32, standardOutput: Data, standardError: String) {
        try spawn(arguments, writesInput: false) { _ throws(SyncError) in }
    }

    /// Runs git, with standard input from `input` (none unless `writesInput`).
    private func spawn(_ arguments: [String], writesInput: Bool, input: (GitInput) throws(SyncError) -> Void) throws(SyncError)
        -> (status: Int32, standardOutput: Data, standardError: String) {
        guard let executable = Self.executable else {
            throw .git(GitFailure(arguments: arguments, status: -1, standardError: "cannot run git: no git on PATH (install git)"))
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-c", "core.quotepath=off", "-c", "user.name=\(machine)", "-c", "user.email=\(machine)@uncloudnotes",
                             "-c", "commit.gpgsign=false",
                             // A first sync checks out every note: one checkout worker per core (git
                             // only uses them from 100 files up).
                             "-c", "checkout.workers=0"] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        environment["GIT_MERGE_AUTOEDIT"] = "no"
        process.environment = environment
        let standardOutput = Pipe()
        let standardError = Pipe()
        let standardInput = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        process.standardInput = writesInput ? standardInput : FileHandle.nullDevice
        let exit = ProcessExit(of: process)
        do {
            try process.run()
        } catch {
            throw .git(GitFailure(arguments: arguments, status: -1, standardError: "cannot run git: \(error.localizedDescription)"))
        }
        // Both pipes are drained on other threads while the input is written on this one, so a
        // full pipe never stalls git.
        let out = PipeReader(standardOutput.fileHandleForReading)
        let errors = PipeReader(standardError.fileHandleForReading)
        var failure: SyncError?
        if writesInput {
            let writer = GitInput(standardInput.fileHandleForWriting)
            do {
                try input(writer)
            } catch {
                failure = error
            }
            writer.close()
        }
        let output = out.wait()
        let err = errors.wait()
        exit.wait()
        if let failure { throw failure }
        return (process.terminationStatus, output, String(decoding: err, as: UTF8.self))
    }
}

/// git's standard input, written as a command reads it, in pieces of about 256 KB (a file's
/// few small writes would each be a system call). A write after git stopped reading (it
/// failed, say) is dropped, with no SIGPIPE: the exit status tells the caller what happened.
final class GitInput {
    private static let pieceSize = 1 << 18
    private let handle: FileHandle
    private var open = true
    private var pending = Data()

    fileprivate init(_ handle: FileHandle) {
        self.handle = handle
    }

    func write(_ data: Data) {
        pending.append(data)
        if pending.count >= Self.pieceSize { flush() }
    }

    func write(_ text: String) { write(Data(text.utf8)) }

    private func flush() {
        if open { open = PipeWrite.all(pending, to: handle.fileDescriptor) }
        pending.removeAll(keepingCapacity: true)
    }

    fileprivate func close() {
        flush()
        try? handle.close()
    }
}

/// Reads a pipe to its end on a thread of its own. Not on Dispatch's global queue: its few
/// workers (one per core) blocked in `read` left the next reader queued until Dispatch noticed
/// and added a worker, which stalled a one-note sync for seconds.
private final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
