import Foundation
import Testing
import TestSupport

@Suite("store info on a store of no known version")
struct UnknownStoreInfoTests {
    @Test("names the closest version and, from Core Data's cached model, how each entity differs", SharedFixtures.required)
    func closestVersion() throws {
        let folder = try TemporaryFolder()
        // wibosco's model without its version 3, and an Apple-written store of version 3.
        let source = SharedFixtures.url("wibosco-migration-example/CoreDataMigration_Example.xcdatamodeld")
        let model = folder.url.appendingPathComponent("Partial.xcdatamodeld")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        for version in ["CoreDataMigration_Example", "CoreDataMigration_Example 2", "CoreDataMigration_Example 4"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent("\(version).xcdatamodel"),
                                             to: model.appendingPathComponent("\(version).xcdatamodel"))
        }
        try FileManager.default.copyItem(at: source.appendingPathComponent(".xccurrentversion"), to: model.appendingPathComponent(".xccurrentversion"))
        let store = try folder.copy(SharedFixtures.url("wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite"))
        let before = try Data(contentsOf: store)

        let text = try BuiltExecutable.run(["store", "info", store.path, "--model", model.path])
        #expect(text.exitCode == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("version: unknown (its hashes match no version of the model)"))
        #expect(lines.contains("closest version: CoreDataMigration_Example 4 (1 of 2 entities with the same hash); the store differs in:"))
        #expect(lines.contains("  Post (another hash): removed attribute Post.hide"))

        let json = try BuiltExecutable.run(["store", "info", store.path, "--model", model.path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let closest = try #require(report["closestVersion"] as? [String: Any])
        #expect(closest["version"] as? String == "CoreDataMigration_Example 4")
        #expect((closest["differences"] as? [[String: Any]])?.compactMap { $0["entity"] as? String } == ["Post"])
        #expect(try Data(contentsOf: store) == before)
    }
}
