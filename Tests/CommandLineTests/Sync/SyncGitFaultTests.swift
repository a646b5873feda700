import Foundation
import Testing
import TestSupport

/// Issue 39's findings: git failing, or answering nothing with exit status 0, at the moments the
/// reliability run found. Each sync that met the fault may fail, but never says all is well
/// when it is not; plain syncs afterwards converge both machines, and nothing either made is lost.
@Suite("Sync when git fails or answers wrongly")
struct SyncGitFaultTests {
    let machines: SyncMachines

    init() throws {
        machines = try SyncMachines()
        try machines.must("alpha", ["notes", "add", "--title", "Shared", "--body", "line one\nline two\n", "--tag", "home"])
        try machines.must("alpha", ["notes", "add", "--title", "Doomed", "--body", "to be deleted\n"])
        try machines.converge(["alpha", "beta"])
    }

    @Test("a merge whose MERGE_HEAD git could not write leaves no conflict markers behind: the next syncs converge (finding 1)")
    func mergeWithoutMergeHead() throws {
        try machines.must("alpha", ["notes", "edit", try machines.number(of: "Shared", on: "alpha"), "--body", "line one\nalpha's line\n"])
        try machines.must("beta", ["notes", "edit", try machines.number(of: "Shared", on: "beta"), "--body", "line one\nbeta's line\n"])
        try machines.must("beta", ["notes", "add", "--title", "From beta", "--body", "b\n", "--tag", "work"])
        #expect(try machines.sync("beta").exitCode == 0)
        // alpha's first merge takes its own export; the second, beta's overlapping edit.
        let git = try FaultyGit("merge", occurrence: 2, answer: .mergeWithoutMergeHead)
        let failed = try machines.sync("alpha", environment: git.environment)
        #expect(git.calls >= 2, "the conflicting merge never ran")
        #expect(failed.exitCode == 1 && failed.standardError.contains("MERGE_HEAD"), "\(failed.standardError)")
        try machines.converge(["alpha", "beta"])
        try machines.expectSame("alpha", "beta")
        let titles = try machines.titles("alpha")
        #expect(titles.contains("From beta") && titles.contains { $0.hasPrefix("Shared (conflict from ") }, "\(titles)")
        let bodies = try machines.notes("alpha").values.compactMap { $0["body"] as? String }
        #expect(!bodies.contains { $0.contains("<<<<<<<") || $0.contains(">>>>>>>") })
        #expect(bodies.contains("line one\nalpha's line\n") && bodies.contains("line one\nbeta's line\n"))
    }

    @Test("after a failed fetch, and after a diff that answered nothing, a note made elsewhere still arrives (finding 2)",
          arguments: [FaultyGit.Answer.fail(status: 128, message: "protocol error: bad pack header"), .empty])
    func noteArrivesAfterFailedRound(fault: FaultyGit.Answer) throws {
        try machines.must("beta", ["notes", "add", "--title", "Made on beta", "--body", "travel\n"])
        #expect(try machines.sync("beta").exitCode == 0)
        let command = if case .empty = fault { "diff" } else { "fetch" }
        let git = try FaultyGit(command, answer: fault)
        let faulted = try machines.sync("alpha", environment: git.environment)
        #expect(git.calls > 0, "alpha never ran git \(command): \(faulted.standardError)")
        #expect(faulted.exitCode == 1, "a round that could not read the remote's changes said: \(faulted.standardOutput)")
        try machines.converge(["alpha", "beta"])
        #expect(try machines.titles("alpha").contains("Made on beta"))
        try machines.expectSame("alpha", "beta")
    }

    @Test("a deletion is sent even when git cat-file fails with an I/O error (finding 3)")
    func deletionSurvivesFailingCatFile() throws {
        try machines.must("alpha", ["notes", "delete", try machines.number(of: "Doomed", on: "alpha")])
        // Every `git cat-file -e` fails, as an I/O error made it: sync asks git no such question
        // now, and must never take a failure for "absent".
        let git = try FaultyGit("cat-file", argument: "-e", answer: .fail(status: 128, message: "unable to read 0123: Input/output error"))
        _ = try machines.sync("alpha", environment: git.environment)
        try machines.converge(["alpha", "beta"])
        #expect(!(try machines.titles("beta")).contains("Doomed"))
        try machines.expectSame("alpha", "beta")
    }

    @Test("a git that exits 0 and prints nothing fails the sync; the local changes are sent later and never overwritten (finding 4)")
    func emptyAnswersLoseNothing() throws {
        let image = try machines.folder.writeImage(named: "photo.png", width: 5, height: 4)
        let shared = try machines.number(of: "Shared", on: "alpha")
        try machines.must("alpha", ["notes", "edit", shared, "--body", "line one\nedited on alpha\n"])
        try machines.must("alpha", ["notes", "tag", shared, "--add", "urgent"])
        try machines.must("alpha", ["notes", "pin", shared])
        try machines.must("alpha", ["notes", "attach", shared, "--image", image.path])
        try machines.must("alpha", ["notes", "add", "--title", "New on alpha", "--body", "n\n"])
        try machines.must("alpha", ["notes", "delete", try machines.number(of: "Doomed", on: "alpha")])
        try machines.must("beta", ["notes", "add", "--title", "New on beta", "--body", "m\n"])
        #expect(try machines.sync("beta").exitCode == 0)
        let before = try machines.notes("alpha")

        let git = try FaultyGit("*", answer: .empty)
        let broken = try machines.sync("alpha", environment: git.environment)
        #expect(git.calls > 0)
        #expect(broken.exitCode == 1 && broken.standardError.contains("cannot trust"), "\(broken.standardOutput)\(broken.standardError)")
        #expect(try machines.notes("alpha") == before, "a failed sync changed the store")

        try machines.converge(["alpha", "beta"])
        try machines.expectSame("alpha", "beta")
        let sharedNote = try #require(try machines.notes("beta").values.first { $0["title"] as? String == "Shared" })
        #expect(sharedNote["body"] as? String == "line one\nedited on alpha\n")
        #expect((sharedNote["tags"] as? [String]).map(Set.init) == ["home", "urgent"])
        #expect(sharedNote["pinned"] as? Bool == true)
        #expect((sharedNote["images"] as? [Any])?.count == 1)
        let titles = try machines.titles("beta")
        #expect(titles.contains("New on alpha") && titles.contains("New on beta") && !titles.contains("Doomed"), "\(titles)")
    }
}
