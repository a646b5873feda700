import Foundation
import Testing
import TestSupport

@Suite("store migrate --keep-steps")
struct KeepStepsTests {
    private func export(_ url: URL) throws -> String {
        let result = try BuiltExecutable.run(["store", "export", url.path, "--raw-dates"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        return result.standardOutput
    }

    @Test("v1 -> v4 one step at a time keeps v2, v3 and v4 copies equal to stores migrated only that far")
    func keptStoresEqualStepByStep() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder, as: "n.sqlite")
        let steps = folder.url.appendingPathComponent("steps")
        // To v4: v5's identifiers are new each run, so only stores up to v4 compare equal.
        let run = try BuiltExecutable.run(["store", "migrate", store.path, "--to", "v4", "--keep-steps", steps.path])
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: steps.path).sorted() == ["n.v2.sqlite", "n.v3.sqlite", "n.v4.sqlite"])
        for version in ["v2", "v3", "v4"] {
            let reference = try ProjectFixtures.copyStore("v1", into: folder, as: "to-\(version).sqlite")
            #expect(try BuiltExecutable.run(["store", "migrate", reference.path, "--to", version]).exitCode == 0)
            #expect(try export(steps.appendingPathComponent("n.\(version).sqlite")) == export(reference), "\(version)")
            let mode = try FileManager.default.attributesOfItem(atPath: steps.appendingPathComponent("n.\(version).sqlite").path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        #expect(try export(store) == export(steps.appendingPathComponent("n.v4.sqlite")))
        // Run one at a time: each step said alone, none fused.
        #expect(!run.standardOutput.contains("in one pass"))
    }

    @Test("the kept v2, v3 and v4 copies equal a store taken through the versions by hand, one --to at a time, and from v2 too")
    func keptStoresEqualManualSteps() throws {
        for start in ["v1", "v2"] {
            let folder = try TemporaryFolder()
            let store = try ProjectFixtures.copyStore(start, into: folder, as: "n.sqlite")
            let manual = try ProjectFixtures.copyStore(start, into: folder, as: "manual.sqlite")
            let steps = folder.url.appendingPathComponent("steps")
            #expect(try BuiltExecutable.run(["store", "migrate", store.path, "--to", "v4", "--keep-steps", steps.path]).exitCode == 0)
            let versions = ["v2", "v3", "v4"].filter { $0 > start }
            #expect(try FileManager.default.contentsOfDirectory(atPath: steps.path).sorted() == versions.map { "n.\($0).sqlite" })
            for version in versions {
                let run = try BuiltExecutable.run(["store", "migrate", manual.path, "--to", version])
                #expect(run.exitCode == 0 && run.standardOutput.contains("1 step"), "\(run.standardOutput)")
                #expect(try export(steps.appendingPathComponent("n.\(version).sqlite")) == export(manual), "\(start): \(version)")
            }
        }
    }

    @Test("a copy's name already taken stops the migration before its first step, the store unchanged")
    func takenNameStopsBeforeAnyStep() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder, as: "n.sqlite")
        let before = try Data(contentsOf: store)
        let steps = folder.url.appendingPathComponent("steps")
        try FileManager.default.createDirectory(at: steps, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: steps.appendingPathComponent("n.v3.sqlite").path, contents: Data("mine".utf8)))
        let run = try BuiltExecutable.run(["store", "migrate", store.path, "--keep-steps", steps.path])
        #expect(run.exitCode == 1 && run.standardError.contains("n.v3.sqlite: a file is already there; nothing was migrated"))
        #expect(try Data(contentsOf: store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: steps.path) == ["n.v3.sqlite"])
    }
}
