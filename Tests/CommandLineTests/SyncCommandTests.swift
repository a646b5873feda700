import Foundation
import Testing
import TestSupport

/// `uncloudnotes sync` end to end: the real binary, real git, a bare repository as the remote.
@Suite("uncloudnotes sync")
struct SyncCommandTests {
    let folder: TemporaryFolder
    let remote: URL

    init() throws {
        folder = try TemporaryFolder()
        remote = folder.url.appendingPathComponent("remote.git")
        let made = try SpawnedProcess.run(["/usr/bin/env", "git", "init", "-q", "--bare", "-b", "main", remote.path])
        #expect(made.code == 0)
    }

    private func store(_ name: String) -> [String] {
        ["--store", folder.url.appendingPathComponent("\(name).sqlite").path, "--model-version", "v5"]
    }

    private func report(_ result: BuiltExecutable.Result) throws -> [String: Any] {
        #expect(result.exitCode == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    /// The remote's branch, as git keeps it (loose or packed).
    private func remoteRefs() -> String {
        ["packed-refs", "refs/heads/main"].map { (try? String(contentsOf: remote.appendingPathComponent($0), encoding: .utf8)) ?? "none" }
            .joined(separator: "\n")
    }

    @Test("the first sync needs --remote; with it a note goes to the remote and from there to another store, in a transaction by sync")
    func twoStores() throws {
        #expect(try BuiltExecutable.run(["notes", "add", "--title", "Groceries", "--body", "milk"] + store("laptop")).exitCode == 0)
        let first = try BuiltExecutable.run(["sync"] + store("laptop"))
        #expect(first.exitCode == 1)
        #expect(first.standardError.hasPrefix("uncloudnotes: no remote to sync with yet: give one with --remote URL"))
        #expect(first.standardError.split(separator: "\n").count == 1)

        let sent = try report(try BuiltExecutable.run(["sync", "--remote", remote.path, "--machine", "laptop", "--json"] + store("laptop")))
        #expect((sent["sent"] as? [String: Int])?["added"] == 1)
        #expect(sent["pushed"] as? Bool == true)
        let received = try report(try BuiltExecutable.run(["sync", "--remote", remote.path, "--machine", "desktop", "--json"] + store("desktop")))
        #expect((received["received"] as? [String: Int])?["added"] == 1)
        // The desktop's first sync merged its own (empty) first commit with the laptop's.
        #expect(received["commit"] as? String != nil)
        let list = try BuiltExecutable.run(["notes", "list"] + store("desktop"))
        #expect(list.standardOutput.contains("\tGroceries\t"))
        let history = try BuiltExecutable.run(["store", "history", "--author", "sync"] + store("desktop"))
        #expect(history.standardOutput.contains("author sync, context sync \(received["commit"] as? String ?? "?")"))

        let text = try BuiltExecutable.run(["sync"] + store("desktop"))
        #expect(text.exitCode == 0)
        #expect(text.standardOutput.hasPrefix("sent nothing; received nothing\nmirror at "))
    }

    @Test("--dry-run says what would be sent and received and changes neither the remote nor the stores")
    func dryRun() throws {
        #expect(try BuiltExecutable.run(["notes", "add", "--title", "One", "--body", "x"] + store("laptop")).exitCode == 0)
        _ = try report(try BuiltExecutable.run(["sync", "--remote", remote.path, "--json"] + store("laptop")))
        _ = try report(try BuiltExecutable.run(["sync", "--remote", remote.path, "--json"] + store("desktop")))
        #expect(try BuiltExecutable.run(["notes", "add", "--title", "Two", "--body", "y"] + store("laptop")).exitCode == 0)
        _ = try report(try BuiltExecutable.run(["sync", "--json"] + store("laptop")))
        #expect(try BuiltExecutable.run(["notes", "add", "--title", "Three", "--body", "z"] + store("desktop")).exitCode == 0)
        let refs = remoteRefs()
        let historyBefore = try BuiltExecutable.run(["store", "history"] + store("desktop")).standardOutput

        let dry = try report(try BuiltExecutable.run(["sync", "--dry-run", "--json"] + store("desktop")))
        #expect(dry["dryRun"] as? Bool == true)
        #expect((dry["sent"] as? [String: Int])?["added"] == 1)
        #expect((dry["received"] as? [String: Int])?["added"] == 1)
        #expect(remoteRefs() == refs)
        #expect(try BuiltExecutable.run(["store", "history"] + store("desktop")).standardOutput == historyBefore)
        #expect(!(try BuiltExecutable.run(["notes", "list"] + store("desktop")).standardOutput.contains("\tTwo\t")))

        let real = try report(try BuiltExecutable.run(["sync", "--json"] + store("desktop")))
        #expect((real["sent"] as? [String: Int])?["added"] == 1)
        #expect((real["received"] as? [String: Int])?["added"] == 1)
    }

    @Test("refusals are one line with exit 1: a store before v5, a mirror folder that is something else")
    func refusals() throws {
        let old = ["--store", folder.url.appendingPathComponent("old.sqlite").path, "--model-version", "v4"]
        #expect(try BuiltExecutable.run(["notes", "add", "--title", "Old", "--body", "v4"] + old).exitCode == 0)
        let v4 = try BuiltExecutable.run(["sync", "--remote", remote.path] + old)
        #expect(v4.exitCode == 1)
        #expect(v4.standardError == "uncloudnotes: sync needs notes with identifiers (model v5); this store runs as v4\n")

        let busy = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: busy.appendingPathComponent("cat.txt"))
        let foreign = try BuiltExecutable.run(["sync", "--remote", remote.path, "--mirror", busy.path] + store("laptop"))
        #expect(foreign.exitCode == 1)
        #expect(foreign.standardError.contains("is not an uncloudnotes mirror (it holds files but is no git repository)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: busy.path) == ["cat.txt"])
    }
}
