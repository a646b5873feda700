import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

@Suite("Reading store metadata")
struct StoreMetadataTests {
    @Test("reads the metadata of a real Core Data store without changing the file", SharedFixtures.required)
    func readsRealStore() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let before = try Data(contentsOf: store)
        let metadata = try StoreMetadata.read(storeAt: store)
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.storeUUID == "5443A63D-EF0E-44C2-B216-AE8B5ED2FD09")
        #expect(metadata.versionHashesVersion == 3)
        #expect(metadata.versionHashes.keys.sorted() == ["User"])
        #expect(metadata.versionHashes["User"]?.count == 32)
        #expect(metadata.frameworkVersion != nil && !metadata.versionIdentifiers.isEmpty)
        #expect(try Data(contentsOf: store) == before)
    }

    @Test("metadata written for a new store is the binary plist Core Data writes, as Foundation's own reader sees it")
    func writtenPlistReadsAsCoreDataWrites() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let written = store.metadata
        try store.close()
        let data = try written.plistData()
        #expect(data.prefix(8) == Data("bplist00".utf8))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["NSStoreModelVersionHashes"] as? [String: Data] == written.versionHashes)
        #expect(plist["NSStoreModelVersionIdentifiers"] as? [String] == written.versionIdentifiers)
        #expect((plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue == StoreMetadata.frameworkVersionWritten)
        #expect((plist["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        #expect(try StoreMetadata.read(storeAt: store.url) == written)
    }

    @Test("a metadata plist whose values have other types than Core Data writes reads them as absent; without hashes it is refused")
    func plistOfOtherTypes() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        try store.close()
        let odd: [String: Any] = ["NSStoreType": 7, "NSStoreModelVersionHashes": store.metadata.versionHashes,
                                  "NSPersistenceFrameworkVersion": "new"]
        try writePlist(odd, into: store.url)
        let read = try StoreMetadata.read(storeAt: store.url)
        #expect(read.storeType == "" && read.frameworkVersion == nil && read.versionHashes == store.metadata.versionHashes)
        try writePlist(["NSStoreModelVersionHashes": "none"], into: store.url)
        let error = try #require(throws: StoreError.self) { try StoreMetadata.read(storeAt: store.url) }
        #expect(error.problem == .metadataWithoutVersionHashes)
    }

    private func writePlist(_ plist: [String: Any], into store: URL) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try DatabaseQueue(path: store.path).write { try $0.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [data]) }
    }

    @Test("a file that is not SQLite is refused with a clear reason and left untouched")
    func notSQLite() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("just some notes, not a database\n", to: "notes.sqlite")
        let error = try #require(throws: StoreError.self) { try StoreMetadata.read(storeAt: file) }
        #expect(error.problem == .notSQLite)
        #expect(try String(contentsOf: file, encoding: .utf8) == "just some notes, not a database\n")
    }

    @Test("an SQLite database without Core Data metadata is refused")
    func sqliteWithoutMetadata() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("plain.sqlite")
        try DatabaseQueue(path: file.path).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let error = try #require(throws: StoreError.self) { try StoreMetadata.read(storeAt: file) }
        #expect(error.problem == .notCoreData)
    }

    @Test("a missing file is refused, not created")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("absent.sqlite")
        #expect(throws: StoreError.self) { try StoreMetadata.read(storeAt: file) }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("a metadata row holding a number for the plist or bytes that are not text for the UUID is refused, not a trap",
          arguments: ["UPDATE Z_METADATA SET Z_PLIST = 7", "UPDATE Z_METADATA SET Z_UUID = X'FF'"])
    func unreadableMetadataRow(damage: String) throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        try store.database.write { try $0.execute(sql: damage) }
        try store.close()
        let error = try #require(throws: StoreError.self) { try StoreMetadata.read(storeAt: store.url) }
        #expect(error.problem == .metadataRowUnreadable)
    }
}
