import Foundation
import Testing
import TestSupport

/// Sync prunes the persistent history every mirror of the store has exported, so a store that
/// syncs does not grow forever, and never history a mirror still has to read.
@Suite("Sync prunes the history its mirrors have read")
struct SyncHistoryPruningTests {
    @Test("after a sync, history it exported is gone and store history says where what is left starts")
    func prunesWhatWasExported() throws {
        let machines = try SyncMachines()
        for title in ["One", "Two", "Three"] { try machines.must("alpha", ["notes", "add", "--title", title, "--body", "x\n"]) }
        let before = try machines.must("alpha", ["store", "history"]).standardOutput
        #expect(before.contains("author uncloudnotes"))
        try machines.must("alpha", ["sync", "--remote", machines.remote, "--machine", "alpha"])
        try machines.must("alpha", ["notes", "add", "--title", "Four", "--body", "x\n"])
        let after = try machines.must("alpha", ["store", "history"]).standardOutput
        let lines = after.split(separator: "\n")
        #expect(lines.first?.hasPrefix("history starts at transaction ") == true, "\(after)")
        #expect(lines.filter { $0.contains("author uncloudnotes") }.count == 1, "\(after)")
        // What is left still syncs.
        try machines.converge(["alpha", "beta"])
        #expect(try machines.titles("beta") == ["One", "Two", "Three", "Four"])
    }

    @Test("history a second mirror of the store has not exported is kept until it has")
    func keepsWhatAnotherMirrorNeeds() throws {
        let machines = try SyncMachines()
        let otherRemote = machines.folder.url.appendingPathComponent("other.git").path
        #expect(try SpawnedProcess.run(["/usr/bin/git", "init", "-q", "--bare", "-b", "main", otherRemote]).code == 0)
        let otherMirror = machines.folder.url.appendingPathComponent("alpha-other.mirror").path
        try machines.must("alpha", ["notes", "add", "--title", "Early", "--body", "x\n"])
        try machines.must("alpha", ["sync", "--remote", machines.remote, "--machine", "alpha"])
        try machines.must("alpha", ["sync", "--remote", otherRemote, "--mirror", otherMirror, "--machine", "alpha"])
        try machines.must("alpha", ["notes", "add", "--title", "Late", "--body", "x\n"])
        // The default mirror exports and prunes; the other has not read "Late" yet.
        try machines.must("alpha", ["sync"])
        try machines.must("alpha", ["sync", "--mirror", otherMirror])
        try machines.must("gamma", ["sync", "--remote", otherRemote, "--machine", "gamma"])
        #expect(try machines.titles("gamma") == ["Early", "Late"])
    }
}
