import Foundation
import Testing
import TestSupport

/// A hostile name in a model file or a store's cached model is refused by the command, naming
/// it, before any SQL runs (bug 10: such a name ran its statements in the in-place migration).
@Suite("Hostile model names at the command line")
struct HostileModelCommandTests {
    static let injected = "evil INTEGER; CREATE TABLE pwned (x); --"

    @Test("store migrate --model with a hostile attribute name: refused naming it, no SQL run, the store as it was")
    func hostileModelFile() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        let model = try Self.hostileAppModel(in: folder)
        let before = try Data(contentsOf: store)

        let run = try BuiltExecutable.run(["--sql-debug", "store", "migrate", store.path, "--model", model.path, "--to", "v2"])
        #expect(run.exitCode == 1 && !run.endedBySignal)
        #expect(run.standardError.contains(Self.injected.debugDescription), "\(run.standardError)")
        #expect(run.standardError.contains("entity Note") && run.standardError.contains("not valid"), "\(run.standardError)")
        #expect(!run.standardError.contains("ManagedStore.SQL"), "no statement may run: \(run.standardError)")
        #expect(try Data(contentsOf: store) == before)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".v1-backup"))
    }

    @Test("store info --model with a hostile name, for a store not made yet: refused naming it, nothing created")
    func hostileModelForNewStore() throws {
        let folder = try TemporaryFolder()
        let model = try Self.hostileAppModel(in: folder)
        let store = folder.url.appendingPathComponent("new.sqlite")
        let run = try BuiltExecutable.run(["--sql-debug", "store", "info", store.path, "--model", model.path])
        #expect(run.exitCode == 1 && !run.endedBySignal)
        #expect(run.standardError.contains(Self.injected.debugDescription), "\(run.standardError)")
        #expect(!run.standardError.contains("ManagedStore.SQL"), "no statement may run: \(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [model.lastPathComponent])
    }

    /// A copy of the app's model whose v2 has an attribute named to inject SQL.
    static func hostileAppModel(in folder: TemporaryFolder) throws -> URL {
        let model = try folder.copy(SharedFixtures.packageRoot.appendingPathComponent("Resources/UnCloudNotesDataModel.xcdatamodeld"))
        let v2 = model.appendingPathComponent("UnCloudNotesDataModel v2.xcdatamodel/contents")
        let contents = try String(contentsOf: v2, encoding: .utf8).replacingOccurrences(
            of: #"<attribute name="title""#,
            with: #"<attribute name="\#(Self.injected)" optional="YES" attributeType="String"/><attribute name="title""#)
        try Data(contents.utf8).write(to: v2)
        return model
    }

    @Test("store migrate of a store whose cached model has a hostile name: refused naming it, nothing written")
    func hostileModelCache() throws {
        let folder = try TemporaryFolder()
        let store = try CompiledModelArchive.thingStore(cachingAttributes: [Self.injected], in: folder.url)
        let before = try Data(contentsOf: store)

        let run = try BuiltExecutable.run(["--sql-debug", "store", "migrate", store.path])
        #expect(run.exitCode == 1 && !run.endedBySignal)
        #expect(run.standardError.contains(Self.injected.debugDescription), "\(run.standardError)")
        let statements = run.standardError.split(separator: "\n").filter { $0.contains("ManagedStore.SQL") }
        let writes = ["CREATE", "ALTER", "INSERT", "UPDATE", "DELETE", "DROP"]
        #expect(!statements.contains { line in writes.contains { line.contains("sql: \($0)") } }, "\(statements)")
        #expect(try Data(contentsOf: store) == before)
    }
}
