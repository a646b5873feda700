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
        #expect(try Data(contentsOf: store) == before)
    }

    @Test("a file that is not SQLite is refused with a clear reason and left untouched")
    func notSQLite() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("just some notes, not a database\n", to: "notes.sqlite")
        let error = try #require(throws: StoreError.self) { try StoreMetadata.read(storeAt: file) }
        #expect(error.reason == "not an SQLite database")
        #expect(try String(contentsOf: file, encoding: .utf8) == "just some notes, not a database\n")
    }

    @Test("an SQLite database without Core Data metadata is refused")
    func sqliteWithoutMetadata() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("plain.sqlite")
        try DatabaseQueue(path: file.path).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let error = try #require(throws: StoreError.self) { try StoreMetadata.read(storeAt: file) }
        #expect(error.reason.contains("not a Core Data store"))
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
        #expect(error.reason.hasPrefix("the Core Data metadata row is not readable"))
    }
}
