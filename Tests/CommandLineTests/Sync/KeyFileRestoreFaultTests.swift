import Foundation
import Testing
import TestSupport

/// Issue 35: a key file of an encrypted mirror edited by hand is put back from `HEAD` before
/// anything is committed. Here that putting back fails (git's checkout failing, or failing to
/// write) or the sync is killed around it: no run ends by a signal of its own, no note reaches
/// the remote or the mirror's history in plain text, and plain syncs afterwards put the file
/// back and converge both machines.
@Suite("An encrypted mirror's hand-edited recipients file, put back when git fails or the sync is killed", .serialized)
struct KeyFileRestoreFaultTests {
    static let secret = "numbat-secret-body"

    /// alpha and beta on an encrypted remote with one shared key; then alpha's mirror loses its
    /// recipients file by hand, and alpha has a new note waiting.
    private static func master() throws -> SyncMachines {
        let machines = try SyncMachines()
        try machines.shareOneKey()
        try machines.must("alpha", ["sync", "--remote", machines.remote, "--machine", "alpha", "--encrypt"] + machines.identityArguments)
        try machines.must("alpha", ["notes", "add", "--title", "First", "--body", "first\n"])
        try machines.converge(["alpha", "beta"])
        try FileManager.default.removeItem(at: machines.folder.url.appendingPathComponent("alpha.mirror/.age-recipients"))
        try machines.must("alpha", ["notes", "add", "--title", "Secret", "--body", "\(secret)\n"])
        return machines
    }

    /// Whether any object of the repository (every blob, decompressed) holds `text`.
    private static func holds(_ text: String, repository: URL, in folder: TemporaryFolder) throws -> Bool {
        let output = folder.url.appendingPathComponent("objects-\(UUID().uuidString)")
        let run = try SpawnedProcess.run(["/usr/bin/git", "-C", repository.path, "cat-file", "--batch-all-objects", "--batch"],
                                         standardOutput: output.path, standardError: "/dev/null")
        #expect(run.code == 0, "git cat-file in \(repository.path) exited \(run.code)")
        return try Data(contentsOf: output).range(of: Data(text.utf8)) != nil
    }

    /// After the faulted run: nothing plain anywhere; plain syncs put the file back and converge.
    /// `killed`: the run was killed from outside (SIGKILL), the one signal allowed.
    private func expectRecovered(_ machines: SyncMachines, after run: BuiltExecutable.Result, killed: Bool = false, _ what: String) throws {
        #expect(!run.endedBySignal || (killed && run.exitCode == SIGKILL), "\(what): ended by signal \(run.exitCode): \(run.standardError)")
        let alphaMirror = machines.folder.url.appendingPathComponent("alpha.mirror")
        #expect(try !Self.holds(Self.secret, repository: URL(fileURLWithPath: machines.remote), in: machines.folder), "\(what): plain on the remote")
        #expect(try !Self.holds(Self.secret, repository: alphaMirror, in: machines.folder), "\(what): plain in alpha's mirror")
        try machines.converge(["alpha", "beta"])
        try machines.expectSame("alpha", "beta")
        #expect(try machines.titles("beta").contains("Secret"), "\(what): the note never arrived")
        #expect(FileManager.default.fileExists(atPath: alphaMirror.appendingPathComponent(".age-recipients").path), "\(what): not put back")
        #expect(try !Self.holds(Self.secret, repository: URL(fileURLWithPath: machines.remote), in: machines.folder), "\(what): plain after converging")
    }

    @Test("git checkout failing while putting the file back: the sync fails, saying so")
    func failedRestore() throws {
        let machines = try SyncMachines(copying: try Self.master())
        let git = try FaultyGit("checkout", answer: .fail(status: 128, message: "unable to write file .age-recipients"))
        let faulted = try machines.sync("alpha", environment: git.environment)
        #expect(git.calls > 0, "the sync never put the file back with git checkout: \(faulted.standardError)")
        #expect(faulted.exitCode == 1 && faulted.standardError.contains("checkout"), "a failed putting back must fail the sync: \(faulted.standardError)")
        try expectRecovered(machines, after: faulted, "checkout failing")
    }

    @Test("the Nth open or write of git checkout failing with EIO while putting the file back")
    func injectedRestoreFaults() throws {
        let master = try Self.master()
        var failedRuns = 0
        for (call, n) in (1...6).map({ ("openat", $0) }) + (1...4).map({ ("write", $0) }) {
            let machines = try SyncMachines(copying: master)
            let git = try FaultyGit("checkout", answer: .injected(call: call, error: "EIO", when: n))
            let faulted = try machines.sync("alpha", environment: git.environment)
            #expect(git.calls > 0, "\(call) #\(n): the sync never ran git checkout")
            if faulted.exitCode != 0 { failedRuns += 1 }
            try expectRecovered(machines, after: faulted, "\(call) #\(n) failing")
        }
        // Some faults fall where git shrugs them off; at least some must have failed the restore.
        #expect(failedRuns > 0, "no injected fault failed the sync: the faults never reached the putting back")
    }

    @Test("the sync killed after each of its first git commands, the putting back among them")
    func killedAroundRestore() throws {
        let master = try Self.master()
        let killSwitch = try GitKillSwitch()
        // Putting the file back is among the round's first commands (HEAD, status, the file at
        // HEAD, checkout); a kill after each of the first eight covers it and the commit after.
        for after in 1...8 {
            let machines = try SyncMachines(copying: master)
            let killed = try machines.sync("alpha", environment: killSwitch.environment(killingAfter: after))
            #expect(killed.endedBySignal, "the sync ran fewer than \(after) git commands")
            try expectRecovered(machines, after: killed, killed: true, "killed after git command \(after)")
        }
    }
}
