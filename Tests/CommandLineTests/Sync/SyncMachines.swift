import Foundation
import Testing
import TestSupport

/// Machines of a sync test run as a user runs them: each its own store, the built program, real
/// git and a bare repository as the remote. What a store holds is read with `notes export`, not
/// with sync's own code.
struct SyncMachines {
    let folder: TemporaryFolder
    let remote: String

    init() throws {
        folder = try TemporaryFolder()
        remote = folder.url.appendingPathComponent("remote.git").path
        let made = try SpawnedProcess.run(["/usr/bin/git", "init", "-q", "--bare", "-b", "main", remote])
        #expect(made.code == 0)
    }

    /// A copy of `other`'s machines and remote, each sync of the copy naming the copy's remote.
    init(copying other: SyncMachines) throws {
        folder = try TemporaryFolder()
        remote = folder.url.appendingPathComponent("remote.git").path
        let copied = try SpawnedProcess.run(["/bin/cp", "-a", other.folder.url.path + "/.", folder.url.path])
        #expect(copied.code == 0)
    }

    /// The commit the remote's `main` names (git rev-parse in the bare repository).
    func remoteHead() throws -> String {
        let output = folder.url.appendingPathComponent("remote-head")
        let run = try SpawnedProcess.run(["/usr/bin/git", "-C", remote, "rev-parse", "main"], standardOutput: output.path, standardError: "/dev/null")
        #expect(run.code == 0, "git rev-parse main in the remote exited \(run.code)")
        return try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The age identity every machine of an encrypted test shares (as one key copied to each).
    var sharedIdentity: URL { folder.url.appendingPathComponent("shared-age-identity.txt") }

    /// Makes the shared identity with Debian's `age-keygen` (`make test` installs it), so every
    /// sync of these machines (and of their copies) reads an encrypted remote.
    func shareOneKey() throws {
        let made = try SpawnedProcess.run(["age-keygen", "-o", sharedIdentity.path], standardOutput: "/dev/null", standardError: "/dev/null")
        #expect(made.code == 0, "age-keygen failed (is Debian's age installed? make test installs it)")
    }

    /// `--identity` of the shared key, once `shareOneKey` made it.
    var identityArguments: [String] {
        FileManager.default.fileExists(atPath: sharedIdentity.path) ? ["--identity", sharedIdentity.path] : []
    }

    func store(_ machine: String) -> [String] {
        ["--store", folder.url.appendingPathComponent("\(machine).sqlite").path, "--model-version", "v5"]
    }

    /// Runs `uncloudnotes` on a machine's store.
    @discardableResult
    func run(_ machine: String, _ command: [String], environment: [String: String] = [:]) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run(command + store(machine), environment: environment)
    }

    /// Runs a command that must succeed.
    @discardableResult
    func must(_ machine: String, _ command: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> BuiltExecutable.Result {
        let result = try run(machine, command)
        #expect(result.exitCode == 0 && !result.endedBySignal, "\(machine) \(command): \(result.standardError)", sourceLocation: sourceLocation)
        return result
    }

    @discardableResult
    func sync(_ machine: String, environment: [String: String] = [:]) throws -> BuiltExecutable.Result {
        try run(machine, ["sync", "--remote", remote, "--machine", machine] + identityArguments, environment: environment)
    }

    /// Plain syncs, each machine in turn and then the first again, every one succeeding.
    func converge(_ machines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for machine in machines + [machines[0]] {
            let result = try sync(machine)
            #expect(result.exitCode == 0 && !result.endedBySignal, "\(machine)'s plain sync: \(result.standardError)", sourceLocation: sourceLocation)
        }
    }

    /// A machine's notes as `notes export` writes them, by identifier: title, body, dates,
    /// tags, pin and images (bytes included).
    func notes(_ machine: String) throws -> [String: NSDictionary] {
        let export = try must(machine, ["notes", "export", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any])
        let notes = try #require(document["notes"] as? [[String: Any]])
        var byIdentifier: [String: NSDictionary] = [:]
        for note in notes { byIdentifier[note["identifier"] as? String ?? "?"] = note as NSDictionary }
        return byIdentifier
    }

    /// A machine's notes as `notes export` writes them, each as JSON with sorted keys: equal
    /// strings, equal notes.
    func canonicalNotes(_ machine: String) throws -> [String: String] {
        try notes(machine).mapValues { note in
            String(decoding: try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    func titles(_ machine: String) throws -> Set<String> {
        Set(try notes(machine).values.compactMap { $0["title"] as? String })
    }

    /// The number `notes list` gives the note titled `title`.
    func number(of title: String, on machine: String) throws -> String {
        let list = try must(machine, ["notes", "list"]).standardOutput
        let row = try #require(list.split(separator: "\n").first { $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst(2).first.map(String.init) == title },
                               "no note titled \(title) on \(machine):\n\(list)")
        return String(row.split(separator: "\t")[0])
    }

    /// Both machines hold the same notes, byte for byte as exported.
    func expectSame(_ first: String, _ second: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ours = try notes(first)
        let theirs = try notes(second)
        let changed = ours.keys.filter { theirs[$0] != nil && theirs[$0] != ours[$0] }
            .map { "\(String(describing: ours[$0])) vs \(String(describing: theirs[$0]))" }
        let difference = "\(first) and \(second) differ: only on \(first): \(Set(ours.keys).subtracting(theirs.keys)); "
            + "only on \(second): \(Set(theirs.keys).subtracting(ours.keys)); changed: \(changed)"
        #expect(ours == theirs, Comment(rawValue: difference),
                sourceLocation: sourceLocation)
    }
}
