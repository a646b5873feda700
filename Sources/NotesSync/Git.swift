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
        String(decoding: try runForData(arguments, allowing: allowed), as: UTF8.self)
    }

    /// Runs git with `arguments`; its standard output as bytes, or `GitFailure` on a non-zero exit.
    func runForData(_ arguments: [String], allowing allowed: Set<Int32> = [0]) throws(SyncError) -> Data {
        try checked(arguments, output(arguments), allowing: allowed)
    }

    /// Runs git with `arguments`, `input` writing its standard input piece by piece on this
    /// thread (so a first export streams every note without holding them all). A git that
    /// stops reading early ends the input quietly; its exit status says why.
    @discardableResult
    func run(_ arguments: [String], streaming input: (GitInput) throws(SyncError) -> Void) throws(SyncError) -> Data {
        try checked(arguments, spawn(arguments, writesInput: true, input: input), allowing: [0])
    }

    private func checked(_ arguments: [String], _ result: (status: Int32, standardOutput: Data, standardError: String),
                         allowing allowed: Set<Int32>) throws(SyncError) -> Data {
        guard allowed.contains(result.status) else {
            throw .git(GitFailure(arguments: arguments, status: result.status, standardError: result.standardError))
        }
        return result.standardOutput
    }

    /// Runs git and returns everything, whatever its exit status.
    func output(_ arguments: [String]) throws(SyncError) -> (status: Int32, standardOutput: Data, standardError: String) {
        try spawn(arguments, writesInput: false) { _ throws(SyncError) in }
    }

    /// Runs git, with standard input from `input` (none unless `writesInput`).
    ///
    /// git's standard output goes to an unlinked file, not a pipe: git ignores a failed write to
    /// a pipe and still exits 0 (with part of its answer, or none), while a failed write to a
    /// file makes it exit non-zero. So an exit status of 0 means the whole answer is here.
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
                             "-c", "checkout.workers=0",
                             // git's automatic housekeeping runs inside the command that starts
                             // it, under sync's lock, never detached: a gc left running would hold
                             // locks (and take refs) while the next sync works.
                             "-c", "gc.autoDetach=false"] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        environment["GIT_MERGE_AUTOEDIT"] = "no"
        process.environment = environment
        let answer: AnswerFile
        do {
            answer = try AnswerFile(near: directory)
        } catch {
            throw .git(GitFailure(arguments: arguments, status: -1, standardError: "cannot make a file for git's answer: \(error)"))
        }
        let standardError = Pipe()
        let standardInput = writesInput ? Pipe() : nil
        process.standardOutput = answer.handle
        process.standardError = standardError
        process.standardInput = standardInput ?? FileHandle.nullDevice
        let exit = ProcessExit(of: process)
        do {
            try process.run()
        } catch {
            throw .git(GitFailure(arguments: arguments, status: -1, standardError: "cannot run git: \(error.localizedDescription)"))
        }
        // Standard error is drained on another thread while the input is written on this one,
        // so a full pipe never stalls git.
        let errors = PipeReader(standardError.fileHandleForReading)
        var failure: SyncError?
        if let standardInput {
            let writer = GitInput(standardInput.fileHandleForWriting)
            do {
                try input(writer)
            } catch {
                failure = error
            }
            writer.close()
        }
        let err = errors.wait()
        // The process keeps its pipes' handles: the parent's ends are closed here, not on release.
        try? standardError.fileHandleForReading.close() // read to its end already
        try? standardInput?.fileHandleForReading.close() // git's end, duplicated into git
        exit.wait()
        if let failure { throw failure }
        let output: Data
        do {
            output = try answer.contents()
        } catch {
            throw .git(GitFailure(arguments: arguments, status: -1, standardError: "cannot read git's answer: \(error)"))
        }
        return (process.terminationStatus, output, String(decoding: err, as: UTF8.self))
    }
}

/// An unlinked private file that a git command writes its answer to (see `Git.spawn`), in the
/// repository's `.git` folder when there is one (it holds the same bytes already), else in the
/// temporary folder.
private struct AnswerFile {
    let handle: FileHandle

    init(near directory: URL) throws {
        let gitDirectory = directory.appendingPathComponent(".git")
        let folder = FileManager.default.fileExists(atPath: gitDirectory.path) ? gitDirectory : FileManager.default.temporaryDirectory
        var template = Array(folder.appendingPathComponent("uncloudnotes-answer-XXXXXX").path.utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // Unlinked at once: nothing is left behind, whatever happens next.
        unlink(String(cString: template))
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Everything git wrote; the file is closed then (a `Process` keeps its standard output's
    /// handle alive, so closing on release left one descriptor open per git command).
    func contents() throws -> Data {
        defer { try? handle.close() } // the answer is read; a failed close loses nothing
        try handle.seek(toOffset: 0)
        return try handle.readToEnd() ?? Data()
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
        // Closing our end of git's input after the last write: a failure here loses nothing, and git's own answer says whether it read it all.
        try? handle.close()
    }
}

/// Reads a pipe to its end on a thread of its own. Not on Dispatch's global queue: its few
/// workers (one per core) blocked in `read` left the next reader queued until Dispatch noticed
/// and added a worker, which stalled a one-note sync for seconds.
///
/// Unchecked: `data` is written by the reading thread once, before `done` is signalled, and read
/// only after `wait()` has seen that signal; the semaphore orders the two.
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
