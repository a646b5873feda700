import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

@Suite("Opening stores")
struct StoreOpeningTests {
    @Test("opens Apple's store: reads its 12 users, writes one more, and the file stays a valid v1 store",
          SharedFixtures.required)
    func realAppleStore() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let models = try ModelFileReader.read(at: SharedFixtures.url("coredata-samplemodel3/SampleModel3.xcdatamodeld"))
        let metadata = try StoreMetadata.read(storeAt: url)
        let version = try #require(models.versions.first { metadata.isCompatible(with: $0) })
        #expect(version.name == "SampleModel3")

        let store = try PersistentStore.open(at: url, model: version)
        let context = ManagedObjectContext(store: store)
        let users = try context.fetch(FetchRequest(entityName: "User", sortDescriptors: [SortDescriptor("petName")]))
        #expect(users.count == 12)
        #expect(users.first?.value(forKey: "name") == .string("User_0"))
        #expect(users.first?.value(forKey: "petName") == .string("Dog_0_0"))
        #expect(Set(users.compactMap { $0.value(forKey: "name") }) == [.string("User_0"), .string("User_1"), .string("User_2")])

        let added = try context.insertObject(entityName: "User")
        added.setValue(.string("User_new"), forKey: "name")
        try context.save()
        #expect(added.objectID.primaryKey == 13)
        try store.close()

        let reopened = try PersistentStore.open(at: url, model: version)
        let again = ManagedObjectContext(store: reopened)
        let found = try again.fetch(FetchRequest(entityName: "User", predicate: ObjectPredicate(format: "name == 'User_new'")))
        #expect(found.count == 1)
        #expect(try again.count(FetchRequest(entityName: "User")) == 13)
        #expect(try StoreMetadata.read(storeAt: url) == metadata)
        let check = try reopened.database.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }

    @Test("a model of another version is refused, naming the entities whose hashes differ, file untouched",
          SharedFixtures.required)
    func incompatibleModel() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let before = try Data(contentsOf: url)
        let models = try ModelFileReader.read(at: SharedFixtures.url("coredata-samplemodel3/SampleModel3.xcdatamodeld"))
        let v2 = try #require(models.version(named: "SampleModel3_v2"))
        let error = try #require(throws: StoreError.self) { try PersistentStore.open(at: url, model: v2) }
        #expect(error.mismatch == .incompatibleModel(entities: ["Pet", "User"]))
        #expect(error.problem == .mismatch(.incompatibleModel(entities: ["Pet", "User"])))
        // Another version's store, not a damaged one: the message does not call it damaged.
        #expect(error.reason.hasPrefix("the model used to open the store is incompatible with the one used to create the store"))
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test("files that are not stores are refused and left as they were")
    func notAStore() throws {
        let folder = try TemporaryFolder()
        let model = try LibraryModel.load()
        let text = try folder.write("hello", to: "notes.sqlite")
        let error = try #require(throws: StoreError.self) { try PersistentStore.open(at: text, model: model) }
        #expect(error.problem == .notSQLite)
        #expect(try String(contentsOf: text, encoding: .utf8) == "hello")
        #expect(throws: StoreError.self) { try PersistentStore.create(at: text, model: model) }
        #expect(try String(contentsOf: text, encoding: .utf8) == "hello")
    }

    @Test("a store opened read-only can be fetched from but not saved to")
    func readOnly() throws {
        let folder = try TemporaryFolder()
        let created = try LibraryModel.createStore(in: folder)
        let writer = ManagedObjectContext(store: created)
        let tag = try writer.insertObject(entityName: "Tag")
        tag.setValue(.string("t"), forKey: "name")
        try writer.save()
        try created.close()

        let store = try PersistentStore.open(at: created.url, model: created.model, options: StoreOptions(isReadOnly: true))
        let context = ManagedObjectContext(store: store)
        #expect(try context.count(FetchRequest(entityName: "Tag")) == 1)
        try context.insertObject(entityName: "Tag").setValue(.string("u"), forKey: "name")
        #expect(throws: ContextError.self) { try context.save() }
    }

    @Test("a new store is private: the file is 0600, and SQLite's -wal and -shm follow it while the app writes",
          arguments: [false, true])
    func privateFiles(throughOpenOrCreate: Bool) throws {
        let folder = try TemporaryFolder()
        let model = try LibraryModel.load()
        let url = folder.url.appendingPathComponent("private.sqlite")
        let store = throughOpenOrCreate
            ? try PersistentStore.openOrCreate(at: url, model: model)
            : try PersistentStore.create(at: url, model: model)
        let context = ManagedObjectContext(store: store)
        try context.insertObject(entityName: "Tag").setValue(.string("t"), forKey: "name")
        try context.save()
        let files = StoreFiles(url: url)
        #expect(files.existing == files.all)
        for file in files.all {
            #expect(try Self.permissions(of: file) == 0o600, "\(file.lastPathComponent)")
        }
        try store.close()
        #expect(try Self.permissions(of: url) == 0o600)
        // openOrCreate takes the store's lock (0600) while it creates the store.
        let lock = throughOpenOrCreate ? ["private.sqlite.lock"] : []
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)) == Set(["private.sqlite"] + lock))
        for file in lock { #expect(try Self.permissions(of: folder.url.appendingPathComponent(file)) == 0o600) }
    }

    private static func permissions(of file: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
