import Foundation
import Testing
import TestSupport

/// What `store migrate` says while it works: each step when its work starts, a composed pass as
/// one pass completed once, and how long it took.
@Suite("store migrate: output that says what happens")
struct MigrationOutputTests {
    @Test("--json: each step is announced just before the first progress inside it, not all before any work; one pass completes once")
    func stepsAsTheyStart() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        let run = try BuiltExecutable.run(["store", "migrate", store.path, "--json"])
        #expect(run.exitCode == 0, "\(run.standardError)")
        let events = try run.standardOutput.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let steps = events.indices.filter { events[$0]["event"] as? String == "step" }
        #expect(steps.count == 4)
        for position in steps {
            let next = events[position + 1]
            #expect(next["event"] as? String == "progress" && next["step"] as? Int == events[position]["index"] as? Int,
                    "step \(events[position]["index"] ?? "?") is followed by its own progress, not by the next step")
        }
        let texts = events.compactMap { $0["text"] as? String }
        #expect(texts.filter { $0 == "Migration Completed Successfully" }.count == 1)
        #expect(texts.contains { $0.contains("in one pass of 4 steps: UnCloudNotesDataModel → UnCloudNotesDataModel v2 → ") })
        let finished = try #require(events.last)
        #expect(finished["event"] as? String == "finished" && (finished["seconds"] as? Double ?? -1) >= 0)
    }

    @Test("plain lines end with the time the upgrade took")
    func elapsedTime() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v2", into: folder)
        let run = try BuiltExecutable.run(["store", "migrate", store.path])
        let last = try #require(run.standardOutput.split(separator: "\n").last)
        #expect(last.hasPrefix("the store is up to date (") && last.hasSuffix(" s)"), "\(last)")
    }
}
