import Foundation
import Processes

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
    static let executable = Command.find("git", path: ProcessInfo.processInfo.environment["PATH"])

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
    func run(_ arguments: [String], streaming input: (ChildInput) throws(SyncError) -> Void) throws(SyncError) -> Data {
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
    /// git's standard output is captured in an unlinked file, not a pipe: git ignores a failed
    /// write to a pipe and still exits 0 (with part of its answer, or none), while a failed write
    /// to a file makes it exit non-zero. So an exit status of 0 means the whole answer is here.
    /// The file is in the repository's `.git` folder when there is one (it holds the same bytes
    /// already), else in the temporary folder; standard error is captured the same way, so no
    /// thread has to drain a pipe.
    private func spawn(_ arguments: [String], writesInput: Bool, input: (ChildInput) throws(SyncError) -> Void) throws(SyncError)
        -> (status: Int32, standardOutput: Data, standardError: String) {
        guard let executable = Self.executable else { throw .noGit }
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        environment["GIT_MERGE_AUTOEDIT"] = "no"
        let gitDirectory = directory.appendingPathComponent(".git").path
        let answers = FileManager.default.fileExists(atPath: gitDirectory) ? gitDirectory : nil
        let command = Command(executable, ["-c", "core.quotepath=off", "-c", "user.name=\(machine)", "-c", "user.email=\(machine)@uncloudnotes",
                                           "-c", "commit.gpgsign=false",
                                           // A first sync checks out every note: one checkout worker per core (git
                                           // only uses them from 100 files up).
                                           "-c", "checkout.workers=0",
                                           // git's automatic housekeeping runs inside the command that starts
                                           // it, under sync's lock, never detached: a gc left running would hold
                                           // locks (and take refs) while the next sync works.
                                           "-c", "gc.autoDetach=false"] + arguments,
                              environment: environment, workingDirectory: directory.path, input: writesInput ? .streamed : .nothing,
                              // git's errors in the temporary folder, usually on another disk: on a
                              // full mirror disk its "No space left on device" is still read back.
                              output: .captured(in: answers), error: .captured())
        // The input's failure is kept while git runs to its end, then thrown: git's exit comes first.
        var failure: SyncError?
        let outcome: ProcessRunner.Outcome
        do throws(ProcessFailure) {
            outcome = try ProcessRunner.run(command) { writer in
                do throws(SyncError) {
                    try input(writer)
                } catch {
                    failure = error
                }
            }
        } catch {
            // The input's own failure says more than a wait that failed after it.
            throw failure ?? .cannotRunGit(arguments: arguments, error)
        }
        if let failure { throw failure }
        return (outcome.termination.status, outcome.output, String(decoding: outcome.error, as: UTF8.self))
    }
}
