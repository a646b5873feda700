import AgeEncryption
import Foundation
import ManagedStore
@testable import NotesSync
import Testing
import TestSupport
import UnCloudNotesKit

/// `uncloudnotes sync` killed with SIGKILL between any two of its git commands (and so on each
/// side of its store transaction), on three machines changing notes in between: after syncing
/// again without kills, all three stores hold the same notes, with the same identifiers and the
/// same bytes of every image, and no note added anywhere is lost.
@Suite("Syncs killed at seeded moments", .serialized)
struct SyncKillStormTests {
    /// Killed syncs; `UNCLOUDNOTES_KILL_STORM` raises it for a longer run.
    private static let kills = Int(ProcessInfo.processInfo.environment["UNCLOUDNOTES_KILL_STORM"] ?? "") ?? 24

    private struct Machine {
        let name: String
        let store: URL
        var arguments: [String] { ["--store", store.path, "--model-version", "v5"] }

        func run(_ command: [String], environment: [String: String] = [:]) throws -> BuiltExecutable.Result {
            try BuiltExecutable.run(command + arguments, environment: environment)
        }

        /// `identity`: the age key all machines share, for an encrypted remote (alpha turns
        /// encryption on with every sync until one lands).
        func sync(_ remote: String, identity: URL? = nil, killing: (GitKillSwitch, after: Int)? = nil) throws -> BuiltExecutable.Result {
            let encryption = identity.map { ["--identity", $0.path] + (name == "alpha" ? ["--encrypt"] : []) } ?? []
            return try run(["sync", "--remote", remote, "--machine", name] + encryption,
                           environment: killing.map { $0.0.environment(killingAfter: $0.after) } ?? [:])
        }

        /// The store's notes, each as its mirror file and the bytes of its images.
        func notes() throws -> [String: [Data]] {
            let book = try UnCloudNotesStack(storeURL: store, versionName: "v5").open()
            let notes = try StoreNotes(context: book.context, version: "v5")
            var all: [String: [Data]] = [:]
            try notes.forEachNote { object in
                if let (note, images) = try notes.mirrorNote(of: object) { all[MirrorNoteFile.render(note)] = note.images.map { images[$0.file] ?? Data() } }
            }
            try book.context.store.close()
            return all
        }

        /// This machine's notes as `notes list` gives them: number and title.
        func list() throws -> [(number: Int, title: String)] {
            try run(["notes", "list", "--json"]).standardOutput.split(separator: "\n").compactMap {
                let row = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                guard let number = row?["id"] as? Int, let title = row?["title"] as? String else { return nil }
                return (number, title)
            }
        }
    }

    @Test("after kills at many points and a sync without kills, three machines hold the same notes and lost none",
          arguments: [false, true])
    func killStorm(encrypted: Bool) throws {
        let folder = try TemporaryFolder()
        let remote = try bareRemote(in: folder)
        let identity = encrypted ? folder.url.appendingPathComponent("shared-age-identity.txt") : nil
        if let identity { try AgeIdentity().identityFile(created: Date()).write(to: identity, atomically: true, encoding: .utf8) }
        let image = try folder.writeImage(named: "picture.png", width: 4, height: 3)
        let machines = ["alpha", "beta", "gamma"].map { Machine(name: $0, store: folder.url.appendingPathComponent("\($0).sqlite")) }
        var random = SplitMix64(seed: 25)
        var added: Set<String> = []
        var deleted: Set<String> = []
        // What the storm changed, by note title, to be found whole at the end.
        var latestBody: [String: String] = [:]
        var tagsAdded: [String: Set<String>] = [:]
        var pinned: Set<String> = []
        var imagesAttached: [String: Int] = [:]
        var kills = 0
        let killSwitch = try GitKillSwitch()
        for round in 0..<Self.kills {
            let machine = machines[Int.random(in: 0..<3, using: &random)]
            let title = "note \(round) from \(machine.name)"
            #expect(try machine.run(["notes", "add", "--title", title, "--body", "line \(round)\n"]).exitCode == 0)
            added.insert(title)
            let notes = try machine.list()
            switch round % 4 {
            case 0 where notes.count > 2:
                let target = notes[notes.count / 3]
                #expect(try machine.run(["notes", "tag", "\(target.number)", "--add", "round-\(round)"]).exitCode == 0)
                #expect(try machine.run(["notes", "pin", "\(target.number)"]).exitCode == 0)
                tagsAdded[target.title, default: []].insert("round-\(round)")
                pinned.insert(target.title)
            case 1:
                let target = notes[notes.count / 2]
                #expect(try machine.run(["notes", "edit", "\(target.number)", "--body", "edited in round \(round)\n"]).exitCode == 0)
                latestBody[target.title] = "edited in round \(round)\n"
            case 2:
                #expect(try machine.run(["notes", "attach", "\(notes[0].number)", "--image", image.path]).exitCode == 0)
                imagesAttached[notes[0].title, default: 0] += 1
            case 3 where notes.count > 3:
                #expect(try machine.run(["notes", "delete", "\(notes[notes.count - 1].number)"]).exitCode == 0)
                deleted.insert(notes[notes.count - 1].title)
            default: break
            }
            // A sync with changes to send and receive runs about 15 git commands (one with nothing, 3).
            let killAfter = Int.random(in: 1...16, using: &random)
            let killed = try machine.sync(remote, identity: identity, killing: (killSwitch, killAfter))
            if killed.endedBySignal { kills += 1 }
            #expect(killed.exitCode == 0 || (killed.endedBySignal && killed.exitCode == SIGKILL),
                    "round \(round), \(machine.name), killed after git command \(killAfter): \(killed.standardError)")
        }
        for _ in 0..<2 {
            for machine in machines {
                let result = try machine.sync(remote, identity: identity)
                #expect(result.exitCode == 0, "\(machine.name): \(result.standardError)")
            }
        }
        let first = try machines[0].notes()
        for machine in machines.dropFirst() { #expect(try machine.notes() == first, "\(machine.name) differs from alpha") }
        let titles = Set(first.keys.compactMap { $0.split(separator: "\n").first { $0.hasPrefix("title: ") }.map { String($0.dropFirst(7)) } })
        // A deleted note may come back (deleted on one machine, edited on another); no other may go.
        let lost = added.subtracting(deleted).subtracting(titles)
        #expect(lost.isEmpty, "notes lost: \(lost.sorted())")
        try expectKept(on: machines[0], bodies: latestBody, tags: tagsAdded, pinned: pinned, images: imagesAttached,
                       picture: try Data(contentsOf: image), deleted: deleted)
        #expect(kills >= Self.kills / 2, "only \(kills) of \(Self.kills) syncs were killed: the kill points must fall inside syncs")
        #expect(first.values.contains { !$0.isEmpty })
        if encrypted { try expectSealed(remote) }
    }

    /// Every note and image file of the remote's `main` is age-encrypted.
    private func expectSealed(_ remote: String) throws {
        let git = Git(directory: URL(fileURLWithPath: remote), machine: "test")
        let paths = try git.run(["ls-tree", "-r", "--name-only", "main"]).split(separator: "\n").map(String.init)
        #expect(paths.contains(MirrorCipher.recipientsFile))
        for path in paths where path.hasPrefix("notes/") || path.hasPrefix("images/") {
            #expect(AgeFile.looksEncrypted(try git.runForData(["show", "main:\(path)"])), "\(path) is plain on the remote")
        }
    }

    /// Every change the storm made to a note not deleted is in the store, read with `notes
    /// export` (not sync's code): its last body (on the note or, where texts overlapped, on a
    /// conflict copy), its added tags, its pin, and as many images as were attached, each the
    /// picture's bytes.
    private func expectKept(on machine: Machine, bodies: [String: String], tags: [String: Set<String>], pinned: Set<String>,
                            images: [String: Int], picture: Data, deleted: Set<String>) throws {
        let export = try machine.run(["notes", "export", "--json"]).standardOutput
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: Any])
        let notes = try #require(document["notes"] as? [[String: Any]])
        func note(_ title: String) -> [String: Any]? { notes.first { $0["title"] as? String == title } }
        for (title, body) in bodies where !deleted.contains(title) {
            #expect(notes.contains { $0["body"] as? String == body && ($0["title"] as? String)?.hasPrefix(title) == true },
                    "the edit \(body.debugDescription) of \(title) is lost")
        }
        for (title, names) in tags where !deleted.contains(title) {
            let have = Set(note(title)?["tags"] as? [String] ?? [])
            #expect(names.isSubset(of: have), "\(title) lost tags: \(names.subtracting(have).sorted())")
        }
        for title in pinned where !deleted.contains(title) {
            #expect(note(title)?["pinned"] as? Bool == true, "\(title) lost its pin")
        }
        for (title, count) in images where !deleted.contains(title) {
            let attached = note(title)?["images"] as? [[String: Any]] ?? []
            let pictures = attached.compactMap { ($0["data"] as? String).flatMap { Data(base64Encoded: $0) } }.filter { $0 == picture }
            #expect(pictures.count >= count, "\(title) has \(pictures.count) of the \(count) images attached to it")
        }
    }
}
