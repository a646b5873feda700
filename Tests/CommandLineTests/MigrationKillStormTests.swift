import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// SIGKILLs over every migration kind at seeded moments: after each, the store is either the
/// original (byte for byte in content) or the finished target, never an intermediate version, and
/// a rerun completes with the same objects as an uninterrupted run and no leftovers.
@Suite("Migrations killed at random moments, every kind", .serialized)
struct MigrationKillStormTests {
    /// Kills per migration kind; `UNCLOUDNOTES_KILL_STORM` raises it for a longer run.
    private static let killsPerKind = Int(ProcessInfo.processInfo.environment["UNCLOUDNOTES_KILL_STORM"] ?? "") ?? 8

    struct Kind: CustomStringConvertible, Sendable {
        var description: String
        /// How the plan describes the step this kind is about.
        var step: String
        /// The store to migrate (made in the folder) and the extra arguments of `store migrate`.
        var make: @Sendable (TemporaryFolder) throws -> (url: URL, arguments: [String])
    }

    static let kinds: [Kind] = [
        Kind(description: "in place (v1 -> v2)", step: "in place") { (try ProjectFixtures.copyStore("v1", into: $0, as: "base.sqlite"), ["--to", "v2"]) },
        Kind(description: "mapping model (v2 -> v3)", step: "mapping model UnCloudNotesMappingModel_v2_to_v3") { (try ProjectFixtures.copyStore("v2", into: $0, as: "base.sqlite"), ["--to", "v3"]) },
        Kind(description: "custom policy (v3 -> v4)", step: "custom policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4") { (try ProjectFixtures.copyStore("v3", into: $0, as: "base.sqlite"), ["--to", "v4"]) },
        Kind(description: "whole chain (v1 -> v4)", step: "mapping model UnCloudNotesMappingModel_v2_to_v3") { (try ProjectFixtures.copyStore("v1", into: $0, as: "base.sqlite"), ["--to", "v4"]) },
        Kind(description: "identifier policy (v4 -> v5, new identifiers)", step: "custom policy UnCloudNotes.IdentifierMigrationPolicyV4toV5") { folder in
            let url = try ProjectFixtures.copyStore("v3", into: folder, as: "base.sqlite")
            let toV4 = try BuiltExecutable.run(["store", "migrate", url.path, "--to", "v4"])
            try #require(toV4.exitCode == 0, "\(toV4.standardError)")
            // Only the store itself is the base: no backup or lock of the step to v4.
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) where name != "base.sqlite" {
                try FileManager.default.removeItem(at: folder.url.appendingPathComponent(name))
            }
            return (url, [])
        },
        Kind(description: "whole chain to v5 (v1 -> v5, new identifiers)", step: "mapping model UnCloudNotesMappingModel_v4_to_v5") { (try ProjectFixtures.copyStore("v1", into: $0, as: "base.sqlite"), []) },
        Kind(description: "whole chain to v5 (v2 -> v5, new identifiers)", step: "mapping model UnCloudNotesMappingModel_v2_to_v3") { (try ProjectFixtures.copyStore("v2", into: $0, as: "base.sqlite"), ["--to", "v5"]) },
        Kind(description: "inferred, copied (an entity joins a hierarchy)", step: "inferred, copied") { try ZooModel.makeStore(in: $0) },
    ]

    private func export(_ url: URL, _ arguments: [String]) throws -> String {
        let model = arguments.firstIndex(of: "--model").map { Array(arguments[$0...($0 + 1)]) } ?? []
        // Core Data's seconds, exactly as stored: a date changed by a microsecond must show.
        let result = try BuiltExecutable.run(["store", "export", url.path, "--raw-dates"] + model)
        #expect(result.exitCode == 0, "\(result.standardError)")
        return Self.withoutIdentifiers(result.standardOutput)
    }

    /// v5's identifiers are new random UUIDs at each run: the export with each one's value
    /// replaced by whether it is unique in the export, so runs compare on everything else.
    private static func withoutIdentifiers(_ export: String) -> String {
        let pattern = /identifier=([0-9A-F-]{36})/
        let values = export.matches(of: pattern).map { String($0.output.1) }
        let unique = Set(values).count == values.count
        return export.replacing(pattern) { _ in unique ? "identifier=<unique>" : "identifier=<repeated>" }
    }

    private func versionName(of url: URL, _ arguments: [String]) throws -> String {
        let model = arguments.firstIndex(of: "--model").map { Array(arguments[$0...($0 + 1)]) } ?? []
        let info = try BuiltExecutable.run(["store", "info", url.path, "--json"] + model)
        let report = try JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any]
        return report?["version"] as? String ?? "unreadable: \(info.standardError)"
    }

    @Test("killed at seeded moments, the store is the original or the target, and a rerun completes", arguments: kinds)
    func killStorm(kind: Kind) throws {
        let folder = try TemporaryFolder()
        let (base, arguments) = try kind.make(folder)
        let original = try export(base, arguments)
        let sourceVersion = try versionName(of: base, arguments)

        let referenceFolder = try TemporaryFolder()
        let reference = referenceFolder.url.appendingPathComponent(base.lastPathComponent)
        try FileManager.default.copyItem(at: base, to: reference)
        let full = try BuiltExecutable.Running(["store", "migrate", reference.path, "--json"] + arguments).finish()
        #expect(full.status == 0)
        #expect(full.lines.contains { $0.contains("\"event\":\"plan\"") && $0.contains(kind.step) }, "\(full.lines.first ?? "")")
        let expected = try export(reference, arguments)
        let targetVersion = try versionName(of: reference, arguments)

        var random = SplitMix64(seed: UInt64(kind.description.utf8.count))
        for round in 0..<Self.killsPerKind {
            let killAfter = Int.random(in: 1...max(1, full.lines.count), using: &random)
            let runFolder = try TemporaryFolder()
            let url = runFolder.url.appendingPathComponent(base.lastPathComponent)
            try FileManager.default.copyItem(at: base, to: url)
            let context: String
            if round.isMultiple(of: 2) {
                // An exact moment: the program is killed right after it writes its Nth event.
                let killed = try BuiltExecutable.run(["store", "migrate", url.path, "--json"] + arguments,
                                                     environment: try KillAfterLines.environment(after: killAfter))
                #expect(killed.exitCode == SIGKILL, "killed after event \(killAfter)")
                context = "\(kind), round \(round), killed after event \(killAfter)"
            } else {
                // A moment in between, wherever the program is once the test has read N lines.
                let running = try BuiltExecutable.Running(["store", "migrate", url.path, "--json"] + arguments)
                for _ in 0..<killAfter where running.nextLine() != nil {}
                running.kill()
                context = "\(kind), round \(round), killed after reading \(killAfter) lines"
            }

            let version = try versionName(of: url, arguments)
            #expect(version == sourceVersion || version == targetVersion, "\(context): \(version)")
            if version == sourceVersion {
                #expect(try export(url, arguments) == original, "\(context): the old store must be intact")
            }
            let rerun = try BuiltExecutable.Running(["store", "migrate", url.path, "--json"] + arguments).finish()
            #expect(rerun.status == 0, "\(context)")
            #expect(try export(url, arguments) == expected, "\(context)")
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: runFolder.url.path))
            let name = url.lastPathComponent
            // The search index the migration builds last, after the store is migrated (issue #38), is the
            // store's companion, not a leftover: a kill while it is built leaves it (and its write-ahead
            // log and shared memory, or the journal of a side file still switching to the log) for the
            // next search to roll back and complete.
            let companions: Set = [name, name + ".lock", name + "-search", name + "-search-wal", name + "-search-shm",
                                   name + "-search-journal"]
            #expect(left.subtracting(companions).allSatisfy { $0.hasSuffix("-backup") }, "\(context): \(left)")
        }
    }
}

/// A two-version model where `Dog` joins `Animal`'s hierarchy: its rows move to another table,
/// which SQL in place cannot do, so the inferred migration copies the store.
enum ZooModel {
    static func makeStore(in folder: TemporaryFolder) throws -> (url: URL, arguments: [String]) {
        let bundle = folder.url.appendingPathComponent("Zoo.xcdatamodeld")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try ModelFiles.writeVersion("Zoo", entities: """
            <entity name="Animal"><attribute name="name" attributeType="String"/></entity>
            <entity name="Dog"><attribute name="name" attributeType="String"/><attribute name="breed" optional="YES" attributeType="String"/></entity>
            """, in: bundle)
        try ModelFiles.writeVersion("Zoo 2", entities: """
            <entity name="Animal"><attribute name="name" attributeType="String"/></entity>
            <entity name="Dog" parentEntity="Animal"><attribute name="breed" optional="YES" attributeType="String"/></entity>
            """, in: bundle)
        try Data(ModelFiles.currentVersion("Zoo 2").utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let model = try ModelFileReader.read(at: bundle)
        let url = folder.url.appendingPathComponent("base.sqlite")
        let store = try PersistentStore.create(at: url, model: model.versions[0], options: StoreOptions(journalMode: .delete))
        let context = ManagedObjectContext(store: store)
        for index in 0..<300 {
            let animal = try context.insertObject(entityName: index.isMultiple(of: 2) ? "Animal" : "Dog")
            animal.setValue(.string("animal \(index)"), forKey: "name")
            if !index.isMultiple(of: 2) { animal.setValue(.string("breed \(index % 7)"), forKey: "breed") }
        }
        try context.save()
        try store.close()
        return (url, ["--model", bundle.path])
    }
}
