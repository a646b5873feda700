import Foundation
import Testing
import TestSupport

@Suite("store info and export on stores that are not the app's, without --model")
struct StoreModelCacheCommandTests {
    @Test("Apple's SampleModel3 store is read with the model Core Data cached in it, and says so", SharedFixtures.required)
    func cachedModel() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copyStore(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let before = try Data(contentsOf: store)
        let info = try BuiltExecutable.run(["store", "info", store.path])
        #expect(info.exitCode == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("objects: User 12"), "\(info.standardOutput)")
        #expect(info.standardError.contains("Z_MODELCACHE"), "\(info.standardError)")
        let export = try BuiltExecutable.run(["store", "export", store.path])
        #expect(export.exitCode == 0, "\(export.standardError)")
        #expect(export.standardOutput.contains("User (12)"), "\(export.standardOutput)")
        #expect(try Data(contentsOf: store) == before)
    }

    @Test("the app's own store never uses a cache: no notice")
    func appStore() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "a", "--body", "b"]).exitCode == 0)
        let info = try BuiltExecutable.run(["store", "info", store.path])
        #expect(info.exitCode == 0)
        #expect(!info.standardError.contains("Z_MODELCACHE"), "\(info.standardError)")
    }
}
