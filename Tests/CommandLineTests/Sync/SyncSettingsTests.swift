import Foundation
import Testing
import TestSupport

/// What sync remembers and how it says what is wrong with a file.
@Suite("Sync's remembered name and its one-line errors")
struct SyncSettingsTests {
    @Test("--machine is remembered as --remote is: a later plain sync commits under the same name")
    func machineRemembered() throws {
        let machines = try SyncMachines()
        try machines.must("alpha", ["notes", "add", "--title", "One", "--body", "1\n"])
        try machines.must("alpha", ["sync", "--remote", machines.remote, "--machine", "laptop"])
        try machines.must("alpha", ["notes", "add", "--title", "Two", "--body", "2\n"])
        try machines.must("alpha", ["sync"])
        let log = machines.folder.url.appendingPathComponent("log")
        let mirror = machines.folder.url.appendingPathComponent("alpha.mirror").path
        let run = try SpawnedProcess.run(["/usr/bin/git", "-C", mirror, "log", "--format=%an", "main"], standardOutput: log.path)
        #expect(run.code == 0)
        let authors = Set(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init))
        #expect(authors == ["laptop"], "\(authors)")
    }

    @Test("front matter of the wrong type is one plain line naming the file and the field, not a Swift DecodingError")
    func frontMatterError() throws {
        let machines = try SyncMachines()
        try machines.must("alpha", ["notes", "add", "--title", "One", "--body", "1\n"])
        try machines.must("alpha", ["sync", "--remote", machines.remote, "--machine", "alpha"])
        let notes = machines.folder.url.appendingPathComponent("alpha.mirror/notes")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: notes.path).first)
        let file = notes.appendingPathComponent(name)
        try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "pinned: false", with: "pinned: [maybe]")
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try machines.sync("alpha")
        #expect(result.exitCode == 1)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("notes/\(name)") && result.standardError.contains("the field pinned is not true or false"),
                "\(result.standardError)")
        #expect(!result.standardError.contains("DecodingError") && !result.standardError.contains("codingPath"))
    }

    @Test("a sync with nothing to send or receive starts at most 3 git processes (the remote's URL, status, fetch)")
    func noOpSyncIsCheap() throws {
        let machines = try SyncMachines()
        try machines.must("alpha", ["notes", "add", "--title", "One", "--body", "1\n"])
        try machines.converge(["alpha", "beta"])
        let git = try FaultyGit("*", answer: .real)
        let result = try machines.sync("alpha", environment: git.environment)
        #expect(result.exitCode == 0 && result.standardOutput.hasPrefix("sent nothing; received nothing"), "\(result.standardOutput)")
        #expect(git.calls > 0 && git.calls <= 3, "\(git.calls) git processes")
    }

    @Test("a bare remote whose HEAD names master is pointed at main by the first push, so git clone checks the notes out")
    func remoteHeadNamesMain() throws {
        let machines = try SyncMachines()
        let remote = machines.folder.url.appendingPathComponent("old-style.git").path
        #expect(try SpawnedProcess.run(["/usr/bin/git", "init", "-q", "--bare", "-b", "master", remote]).code == 0)
        try machines.must("alpha", ["notes", "add", "--title", "One", "--body", "1\n"])
        let first = try machines.must("alpha", ["sync", "--remote", remote, "--machine", "alpha"])
        #expect(first.standardOutput.contains("note: the remote's HEAD named refs/heads/master"), "\(first.standardOutput)")
        let clone = machines.folder.url.appendingPathComponent("clone").path
        #expect(try SpawnedProcess.run(["/usr/bin/git", "clone", "-q", remote, clone]).code == 0)
        let notes = try FileManager.default.contentsOfDirectory(atPath: clone + "/notes")
        #expect(notes.count == 1, "\(notes)")
        let second = try machines.must("alpha", ["sync"])
        #expect(!second.standardOutput.contains("note:"), "\(second.standardOutput)")
    }
}
