import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

@Suite("Inferred mappings and in-place migration")
struct InferredMigrationTests {
    /// Versions of a model written into one `.xcdatamodeld`.
    private func versions(_ entities: [String], in folder: TemporaryFolder) throws -> [ManagedObjectModel] {
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")
        for (index, xml) in entities.enumerated() {
            try ModelFiles.writeVersion(index == 0 ? "M" : "M v\(index + 1)", entities: xml, in: bundle)
        }
        try folder.write(ModelFiles.currentVersion("M v\(entities.count)"), to: "M.xcdatamodeld/.xccurrentversion")
        return try ModelFileReader.read(at: bundle).versions
    }

    /// A store of the model with rows inserted by `fill`, closed.
    private func store(_ model: ManagedObjectModel, in folder: TemporaryFolder,
                       fill: (ManagedObjectContext) throws -> Void) throws -> URL {
        let url = folder.url.appendingPathComponent("store.sqlite")
        let store = try PersistentStore.create(at: url, model: model)
        let context = ManagedObjectContext(store: store)
        try fill(context)
        try context.save()
        try store.close()
        return url
    }

    private func insert(_ context: ManagedObjectContext, _ entity: String, _ values: [String: AttributeValue]) throws {
        let object = try context.insertObject(entityName: entity)
        for (key, value) in values { object.setValue(value, forKey: key) }
    }

    private func fetchAll(_ url: URL, _ model: ManagedObjectModel, _ entity: String, sortedBy key: String) throws -> [[String: AttributeValue]] {
        let store = try PersistentStore.open(at: url, model: model)
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        return try context.fetch(FetchRequest(entityName: entity, sortDescriptors: [SortDescriptor(key)])).map { object in
            Dictionary(uniqueKeysWithValues: model.allAttributes(of: entity).compactMap { attribute in
                object.value(forKey: attribute.name).map { (attribute.name, $0) }
            })
        }
    }

    private let note = #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="count" optional="YES" attributeType="Integer 64"/></entity>"#

    @Test("adding an optional attribute is inferred and done in place; the store UUID and rows stay")
    func addOptionalAttribute() throws {
        let folder = try TemporaryFolder()
        let models = try versions([note, #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="count" optional="YES" attributeType="Integer 64"/><attribute name="image" optional="YES" attributeType="Binary"/></entity>"#], in: folder)
        let url = try store(models[0], in: folder) { context in
            for index in 0..<5 { try insert(context, "Note", ["title": .string("n\(index)"), "count": .integer(Int64(index))]) }
        }
        let uuid = try StoreMetadata.read(storeAt: url).storeUUID
        let inferred = try MappingInference.infer(from: models[0], to: models[1])
        #expect(inferred.changes == ["added optional attribute Note.image"])
        #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred))
        let metadata = try StoreMetadata.read(storeAt: url)
        #expect(metadata.isCompatible(with: models[1]))
        #expect(metadata.storeUUID == uuid)
        let rows = try fetchAll(url, models[1], "Note", sortedBy: "title")
        #expect(rows.map { $0["title"] } == (0..<5).map { .string("n\($0)") })
        #expect(rows.allSatisfy { $0["image"] == nil })
    }

    @Test("renames by renaming identifier, across several versions, move tables and columns in place")
    func renames() throws {
        let folder = try TemporaryFolder()
        let models = try versions([
            #"<entity name="Memo"><attribute name="text" attributeType="String"/></entity>"#,
            #"<entity name="Note" elementID="Memo"><attribute name="body" attributeType="String" elementID="text"/></entity>"#,
            #"<entity name="Entry" elementID="Memo"><attribute name="content" attributeType="String" elementID="text"/></entity>"#,
        ], in: folder)
        let url = try store(models[0], in: folder) { try insert($0, "Memo", ["text": .string("hello")]) }
        let skipping = try MappingInference.infer(from: models[0], to: models[2])
        #expect(skipping.changes == ["renamed entity Memo to Entry", "renamed attribute Memo.text to Entry.content"])
        #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[2], inferred: skipping))
        #expect(try fetchAll(url, models[2], "Entry", sortedBy: "content") == [["content": .string("hello")]])
        let tables = try DatabaseQueue(path: url.path).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        #expect(tables == ["ZENTRY", "Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"])
    }

    @Test("a new entity that sorts first renumbers the others' rows; required attributes get their defaults")
    func renumberingAndDefaults() throws {
        let folder = try TemporaryFolder()
        let models = try versions([note, """
            <entity name="Attachment"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Note"><attribute name="title" attributeType="String"/><attribute name="count" attributeType="Integer 64" defaultValueString="7"/><attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/></entity>
            """], in: folder)
        let url = try store(models[0], in: folder) { context in
            try insert(context, "Note", ["title": .string("a"), "count": .integer(3)])
            try insert(context, "Note", ["title": .string("b")])
        }
        let inferred = try MappingInference.infer(from: models[0], to: models[1])
        #expect(Set(inferred.changes) == ["added entity Attachment", "attribute Note.count became required (default 7)",
                                          "added attribute Note.pinned with default NO"])
        #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred))
        let rows = try fetchAll(url, models[1], "Note", sortedBy: "title")
        #expect(rows == [["title": .string("a"), "count": .integer(3), "pinned": .bool(false)],
                         ["title": .string("b"), "count": .integer(7), "pinned": .bool(false)]])
        let entities = try DatabaseQueue(path: url.path).read { try Int.fetchAll($0, sql: "SELECT DISTINCT Z_ENT FROM ZNOTE") }
        #expect(entities == [2])
        let maximum = try DatabaseQueue(path: url.path).read { try Int.fetchOne($0, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'") }
        #expect(maximum == 2)
    }

    @Test("changes that would lose or invent data are refused, naming the change", arguments: [
        (#"<entity name="Note"><attribute name="title" attributeType="Integer 64"/><attribute name="count" optional="YES" attributeType="Integer 64"/></entity>"#,
         "attribute Note.title changed type from String to Integer 64"),
        (#"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="count" attributeType="Integer 64"/></entity>"#,
         "attribute Note.count became required without a default value"),
        (#"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="count" optional="YES" attributeType="Integer 64"/><attribute name="stars" attributeType="Integer 16"/></entity>"#,
         "attribute Note.stars was added as required without a default value"),
        (#"<entity name="Note"><attribute name="title" attributeType="String"/></entity><entity name="Stat"><attribute name="count" optional="YES" attributeType="Integer 64"/></entity>"#,
         "attribute Note.count moved to new entity Stat"),
    ])
    func refused(destination: String, reason: String) throws {
        let folder = try TemporaryFolder()
        let models = try versions([note, destination], in: folder)
        let error = try #require(throws: InferenceError.self) { try MappingInference.infer(from: models[0], to: models[1]) }
        #expect(error.blockingChanges == [reason])
        #expect(error.description == "cannot infer a mapping: \(reason); a mapping model is needed")
    }

    @Test("a failing in-place migration rolls back: the store is as it was and still opens")
    func rollsBack() throws {
        let folder = try TemporaryFolder()
        let unique = #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="count" optional="YES" attributeType="Integer 64"/><uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints></entity>"#
        let models = try versions([note, unique], in: folder)
        let url = try store(models[0], in: folder) { context in
            try insert(context, "Note", ["title": .string("same")])
            try insert(context, "Note", ["title": .string("same")])
        }
        let before = try StoreDump.contents(of: PersistentStore.open(at: url, model: models[0]))
        let inferred = try MappingInference.infer(from: models[0], to: models[1])
        #expect(throws: (any Error).self) {
            try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred)
        }
        #expect(try StoreDump.contents(of: PersistentStore.open(at: url, model: models[0])) == before)
    }

    @Test("many-to-many tables follow entity renumbering")
    func joinTableRenamed() throws {
        let folder = try TemporaryFolder()
        let pair = #"<entity name="Note"><attribute name="title" attributeType="String"/><relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/></entity><entity name="Tag"><attribute name="name" attributeType="String"/><relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/></entity>"#
        let models = try versions([pair, #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"# + pair], in: folder)
        let url = try store(models[0], in: folder) { context in
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.string("n"), forKey: "title")
            let tag = try context.insertObject(entityName: "Tag")
            tag.setValue(.string("t"), forKey: "name")
            note.addObject(tag, forKey: "tags")
        }
        #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1],
                                             inferred: MappingInference.infer(from: models[0], to: models[1])))
        let store = try PersistentStore.open(at: url, model: models[1])
        let context = ManagedObjectContext(store: store)
        let note = try #require(try context.fetch(FetchRequest(entityName: "Note")).first)
        #expect(note.objects(forKey: "tags").map { $0.value(forKey: "name") } == [.string("t")])
        #expect(try store.database.read { try $0.tableExists("Z_2TAGS") })
    }
}
