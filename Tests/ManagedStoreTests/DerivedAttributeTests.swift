import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Derived attributes as Core Data keeps them: triggers stored in the file that call functions
/// Core Data registers on its connection. The engine registers them and makes the same triggers.
@Suite("Derived attributes (Apple's SampleModel2: Book.pagesCount = pages.@count)", SharedFixtures.required)
struct DerivedAttributeTests {
    let folder: TemporaryFolder
    let models: VersionedModel

    init() throws {
        folder = try TemporaryFolder()
        models = try SampleModel2.versions(in: folder)
    }

    /// Each book's stored pagesCount next to its real number of pages.
    private func counts(_ url: URL) throws -> [(stored: Int?, real: Int)] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT ZPAGESCOUNT, (SELECT COUNT(*) FROM ZPAGE WHERE ZPAGE.ZBOOK = ZBOOK.Z_PK) FROM ZBOOK ORDER BY Z_PK")
                .map { ($0[0], $0[1]) }
        }
    }

    private func triggers(_ url: URL) throws -> [String: String] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
                .map { ($0[0], $0[1]) })
        }
    }

    @Test("pages added, moved and deleted by the engine keep Apple's pagesCount right")
    func enginesWritesKeepTheCount() throws {
        let url = try SampleModel2.copyStore(into: folder)
        #expect(try counts(url).allSatisfy { $0.stored == $0.real })
        let store = try PersistentStore.open(at: url, model: models.versions[0], options: StoreOptions(recordsPersistentHistory: true))
        let context = ManagedObjectContext(store: store)
        let books = try context.fetch(FetchRequest(entityName: "Book", sortDescriptors: [SortDescriptor("title")], includesSubentities: false))
        let (first, second) = (books[0], books[1])
        for number in 1...3 {
            let page = try context.insertObject(entityName: "Page")
            page.setValue(.integer(Int64(10_000 + number)), forKey: "number")
            page.setValue(.data(Data([UInt8(number)])), forKey: "content")
            page.setObject(first, forKey: "book")
        }
        try context.save(validating: false)
        let moved = try #require(second.objects(forKey: "pages").first)
        moved.setObject(first, forKey: "book")
        let deleted = try #require(second.objects(forKey: "pages").first { $0 !== moved })
        context.delete(deleted)
        // An edit of the book itself must not write its derived count back over the triggers' value.
        first.setValue(AttributeValue.string("Edited"), forKey: "title")
        try context.save(validating: false)
        try store.close()
        let after = try counts(url)
        #expect(after.allSatisfy { $0.stored == $0.real }, "\(after)")
    }

    @Test("a store the engine creates for SampleModel2V1 has Apple's five triggers, word for word")
    func sameTriggersAsApple() throws {
        let apple = try triggers(try SampleModel2.copyStore(into: folder, as: "Apple.sqlite"))
        let url = folder.url.appendingPathComponent("Engine.sqlite")
        try PersistentStore.create(at: url, model: models.versions[0]).close()
        #expect(apple.count == 5)
        #expect(try triggers(url) == apple)
    }

    @Test("a copying migration of Apple's store keeps the derived count kept")
    func copyingMigrationKeepsTriggers() throws {
        let source = try SampleModel2.copyStore(into: folder)
        let destination = folder.url.appendingPathComponent("V2.sqlite")
        let (v1, v2) = (models.versions[0], models.versions[1])
        try MigrationManager.migrateStore(from: source, sourceModel: v1, to: destination, destinationModel: v2,
                                          mappingModel: MappingInference.infer(from: v1, to: v2).mappingModel)
        #expect(try triggers(destination).count == 5)
        #expect(try counts(destination).allSatisfy { $0.stored == $0.real })
        let queue = try DatabaseQueue(path: destination.path)
        try queue.write { db in
            for function in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
                db.add(function: DatabaseFunction(function, argumentCount: 5) { _ in nil })
            }
            try db.execute(sql: "DELETE FROM ZPAGE WHERE Z_PK IN (SELECT Z_PK FROM ZPAGE LIMIT 7)")
        }
        try queue.close()
        #expect(try counts(destination).allSatisfy { $0.stored == $0.real })
    }
}

@Suite("Derived attributes the engine cannot keep")
struct UnsupportedDerivationTests {
    @Test("a model deriving anything but a to-many count is refused by name, creating nothing")
    func refusedByName() throws {
        let folder = try TemporaryFolder()
        let entities = """
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <attribute name="shout" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(name)"/>
            </entity>
            """
        let model = try ModelFileReader.read(at: try ModelFiles.writeVersion("People", entities: entities, in: folder.url)).current
        let url = folder.url.appendingPathComponent("People.sqlite")
        let error = try #require(throws: StoreError.self) { try PersistentStore.create(at: url, model: model) }
        #expect(error.description.contains("Person.shout is derived as uppercase:(name)"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
