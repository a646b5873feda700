import Foundation
import Testing
import TestSupport

/// `store migrate` showing its work: each pass's objects and time per entity mapping (lines and
/// `--json`), and `--dry-run --explain` with the passes as they will run and their SQL.
@Suite("store migrate: numbers per pass and entity mapping, and --explain")
struct MigrationLabCommandTests {
    private func events(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    private func noteCount(_ store: URL, version: String) throws -> Int {
        try BuiltExecutable.run(["--model-version", version, "--store", store.path, "notes", "list"]).standardOutput
            .split(separator: "\n").count
    }

    @Test("--json: a passFinished event per pass, before its steps finish, with each entity mapping's objects read and written and time")
    func passFinishedJSON() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v2", into: folder)
        let notes = try noteCount(store, version: "v2")
        let events = try events(try BuiltExecutable.run(["store", "migrate", store.path, "--to", "v4", "--json"]).standardOutput)
        let passes = events.indices.filter { events[$0]["event"] as? String == "passFinished" }
        #expect(passes.count == 1)
        let pass = try #require(passes.first.map { events[$0] })
        #expect(pass["firstStep"] as? Int == 1 && pass["lastStep"] as? Int == 2 && pass["inPlace"] as? Bool == false)
        #expect(pass["seconds"] is Double)
        let mappings = try #require(pass["entityMappings"] as? [[String: Any]])
        #expect(mappings.compactMap { $0["name"] as? String } == ["NoteToNote", "AttachmentToImageAttachment"])
        #expect(mappings.allSatisfy { $0["seconds"] is Double && $0["rowsRead"] is Int && $0["rowsWritten"] is Int })
        #expect(mappings.first?["rowsRead"] as? Int == notes && mappings.first?["rowsWritten"] as? Int == notes)
        #expect(pass["rowsRead"] as? Int == mappings.compactMap { $0["rowsRead"] as? Int }.reduce(0, +))
        let stepFinished = try #require(events.firstIndex { $0["event"] as? String == "stepFinished" })
        #expect(passes[0] < stepFinished)
    }

    @Test("plain lines: each step as it starts, each pass as it ends with its numbers, an in-place step's rows rewritten")
    func passLines() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        let lines = try BuiltExecutable.run(["store", "migrate", store.path, "--to", "v2"]).standardOutput.split(separator: "\n").map(String.init)
        let started = try #require(lines.firstIndex { $0.hasPrefix("step 1: UnCloudNotesDataModel -> UnCloudNotesDataModel v2 (in place)") })
        let done = try #require(lines.firstIndex { $0.hasPrefix("step 1 (UnCloudNotesDataModel -> UnCloudNotesDataModel v2) done in ") })
        #expect(started < done && lines[done].range(of: #"in place, \d+ rows? rewritten$"#, options: .regularExpression) != nil, "\(lines[done])")
        let v2 = try ProjectFixtures.copyStore("v2", into: folder, as: "v2.sqlite")
        let copied = try BuiltExecutable.run(["store", "migrate", v2.path, "--to", "v3"]).standardOutput
        #expect(copied.range(of: #"\n  NoteToNote: \d+ read, \d+ written, \d+\.\d{3} s"#, options: .regularExpression) != nil, "\(copied)")
    }

    @Test("--dry-run --explain: the plan, the backup, each pass fused or in place with its SQL and parameters; the store only read")
    func explainText() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        let before = try Data(contentsOf: store)
        let run = try BuiltExecutable.run(["store", "migrate", store.path, "--to", "v4", "--dry-run", "--explain"])
        #expect(run.exitCode == 0, "\(run.standardError)")
        let text = run.standardOutput
        #expect(text.hasPrefix("plan: UnCloudNotesDataModel -> UnCloudNotesDataModel v4, 3 steps in 1 pass\n"))
        #expect(text.contains("backup: \(store.path).v1-backup: a hard link to the store"))
        #expect(text.contains("-- pass 1: steps 1-3 (UnCloudNotesDataModel -> UnCloudNotesDataModel v2 -> UnCloudNotesDataModel v3 -> "
            + "UnCloudNotesDataModel v4) fused: their mappings composed into one, copied into a new file"))
        #expect(text.contains("-- reads \(store.path), writes \(store.path).migrating-next"))
        #expect(text.contains("-- functions written in Swift, registered on the connection that writes: "))
        #expect(text.contains("ATTACH DATABASE 'file://\(store.path)?mode=ro&immutable=1' AS src;"))
        #expect(text.contains("INSERT INTO main.\"ZNOTE\""))
        #expect(text.contains("-- Z_PLIST below, a binary property list: SQLite store; entity version hashes: Attachment "),
                "the metadata's blob is said in words (issue #38)")
        #expect(!text.contains("uncloudnotes-explain"), "scratch names are replaced by the store's")
        #expect(try Data(contentsOf: store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [store.lastPathComponent], "nothing made beside the store")

        let inPlace = try BuiltExecutable.run(["store", "migrate", store.path, "--to", "v2", "--dry-run", "--explain", "--json"])
        let report = try #require(JSONSerialization.jsonObject(with: Data(inPlace.standardOutput.utf8)) as? [String: Any])
        let pass = try #require((report["passes"] as? [[String: Any]])?.first)
        #expect(pass["inPlace"] as? Bool == true && pass["writes"] as? String == store.path)
        let statements = try #require(pass["statements"] as? [[String: Any]])
        #expect(statements.contains { ($0["sql"] as? String)?.hasPrefix("ALTER TABLE") == true })
        #expect(statements.contains { ($0["sql"] as? String)?.hasPrefix("UPDATE Z_METADATA SET Z_PLIST = x'") == true }, "a blob parameter written in")
    }

    @Test("--explain names each Swift function of a pass once, though two mappings compute identifiers with it (v1 -> v5)")
    func explainNamesFunctionsOnce() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        let run = try BuiltExecutable.run(["store", "migrate", store.path, "--to", "v5", "--dry-run", "--explain"])
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains(
            "-- functions written in Swift, registered on the connection that writes: caption, image_height, image_width, new_identifier\n"),
            "\(run.standardOutput.split(separator: "\n").filter { $0.contains("functions written") })")
    }

    @Test("--explain works on any model (--model, --mappings); without --dry-run it is a usage error", SharedFixtures.required)
    func explainAnyModel() throws {
        #expect(try BuiltExecutable.run(["store", "migrate", "x.sqlite", "--explain"]).exitCode == 2)
        let folder = try TemporaryFolder()
        let fixture = SharedFixtures.url("wibosco-migration-example")
        let store = try folder.copyStore(fixture.appendingPathComponent("stores/CoreDataMigration_Example_1.sqlite"), as: "Example.sqlite")
        let run = try BuiltExecutable.run(["store", "migrate", store.path, "--model", fixture.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld").path,
                                           "--mappings", fixture.appendingPathComponent("Mappings").path, "--to", "CoreDataMigration_Example 2",
                                           "--dry-run", "--explain"])
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("mapping model Migration1to2"))
        #expect(run.standardOutput.contains("INSERT INTO main.\"ZPOST\""))
    }
}
