import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Links relationships object by object, to check that path against the SQL one.
final class PerObjectRelationships: EntityMigrationPolicy {
    override var createsRelationshipsFromMappingExpressions: Bool { false }
}

@Suite("Migration manager on every kind of relationship")
struct MigrationManagerTests {
    /// A library with every relationship kind filled in.
    private func library(in folder: TemporaryFolder) throws -> PersistentStore {
        let store = try LibraryModel.createStore(in: folder)
        let context = ManagedObjectContext(store: store)
        func make(_ entity: String, _ values: [String: AttributeValue]) throws -> ManagedObject {
            let object = try context.insertObject(entityName: entity)
            for (key, value) in values { object.setValue(value, forKey: key) }
            return object
        }
        let ann = try make("Owner", ["name": .string("Ann")])
        let shelf = try make("Shelf", ["name": .string("kitchen")])
        let hall = try make("Shelf", ["name": .string("hall")])
        shelf.setObject(ann, forKey: "owner")
        let red = try make("Tag", ["name": .string("red")]), blue = try make("Tag", ["name": .string("blue")])
        red.setObject(ann, forKey: "holder")
        for index in 0..<6 {
            let item = try make(index % 2 == 0 ? "Book" : "Tool", ["title": .string("item\(index)")])
            item.setObject(index < 4 ? shelf : hall, forKey: "shelf")
            if index % 3 == 0 { item.addObject(red, forKey: "tags") }
            item.addObject(blue, forKey: "tags")
            if index == 5 { blue.setObject(item, forKey: "featured") }
        }
        try context.save()
        return store
    }

    /// Every object by its natural key, with its relationships by their targets' keys.
    private func logicalContents(_ store: PersistentStore) throws -> [String] {
        let context = ManagedObjectContext(store: store)
        let keys = ["Owner": "name", "Shelf": "name", "Tag": "name", "Item": "title"]
        func key(_ object: ManagedObject) -> String {
            let entity = store.model.rootEntity(of: object.entity.name)!.name
            return "\(object.entity.name):\(object.value(forKey: keys[entity]!)?.displayText ?? "?")"
        }
        var lines: [String] = []
        for (entity, _) in keys {
            for object in try context.fetch(FetchRequest(entityName: entity)) {
                var parts = [key(object)]
                for relationship in store.model.allRelationships(of: object.entity.name).sorted(by: { $0.name < $1.name }) {
                    let targets = relationship.isToMany ? object.objects(forKey: relationship.name) : [object.object(forKey: relationship.name)].compactMap { $0 }
                    let names = targets.map(key)
                    parts.append("\(relationship.name)=\((relationship.isOrdered ? names : names.sorted()).joined(separator: ","))")
                }
                lines.append(parts.joined(separator: " "))
            }
        }
        return lines.sorted()
    }

    @Test("an identity migration, set-based and per object, keeps every object and relationship",
          arguments: [false, true])
    func identityMigration(perObject: Bool) throws {
        let folder = try TemporaryFolder()
        let source = try library(in: folder)
        let expected = try logicalContents(source)
        try source.close()
        let model = source.model
        var mapping = try MappingInference.infer(from: model, to: model).mappingModel
        var policies = MigrationPolicyRegistry()
        if perObject {
            policies.register(PerObjectRelationships.self, as: "Tests.PerObjectRelationships")
            mapping.entityMappings = mapping.entityMappings.map { var entity = $0; entity.policyClassName = "Tests.PerObjectRelationships"; return entity }
        }
        let destination = folder.url.appendingPathComponent("copy.sqlite")
        try MigrationManager.migrateStore(from: source.url, sourceModel: model, to: destination, destinationModel: model,
                                          mappingModel: mapping, policies: policies)
        #expect(!FileManager.default.fileExists(atPath: destination.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: source.url.path + "-shm"))
        let copy = try PersistentStore.open(at: destination, model: model)
        let contents = try logicalContents(copy)
        #expect(contents == expected, "\(Set(contents).symmetricDifference(expected).sorted())")
        #expect(copy.metadata.storeUUID == source.metadata.storeUUID)
    }

    @Test("a hierarchy change cannot be done in place; the inferred mapping then copies the objects")
    func hierarchyChangeCopies() throws {
        let folder = try TemporaryFolder()
        let bundle = folder.url.appendingPathComponent("H.xcdatamodeld")
        try ModelFiles.writeVersion("H", entities: #"<entity name="Photo"><attribute name="name" attributeType="String"/></entity><entity name="Video"><attribute name="name" attributeType="String"/><attribute name="seconds" optional="YES" attributeType="Double"/></entity>"#, in: bundle)
        try ModelFiles.writeVersion("H v2", entities: #"<entity name="Media" isAbstract="YES"><attribute name="name" attributeType="String"/></entity><entity name="Photo" parentEntity="Media"/><entity name="Video" parentEntity="Media"><attribute name="seconds" optional="YES" attributeType="Double"/></entity>"#, in: bundle)
        try folder.write(ModelFiles.currentVersion("H v2"), to: "H.xcdatamodeld/.xccurrentversion")
        let models = try ModelFileReader.read(at: bundle).versions
        let url = folder.url.appendingPathComponent("h.sqlite")
        let store = try PersistentStore.create(at: url, model: models[0])
        let context = ManagedObjectContext(store: store)
        for (entity, name) in [("Photo", "sunset"), ("Video", "party"), ("Photo", "cat")] {
            let object = try context.insertObject(entityName: entity)
            object.setValue(.string(name), forKey: "name")
            if entity == "Video" { object.setValue(.double(12.5), forKey: "seconds") }
        }
        try context.save()
        try store.close()

        let inferred = try MappingInference.infer(from: models[0], to: models[1])
        #expect(inferred.changes.contains("entity Photo now has parent Media"))
        #expect(try InPlaceMigration.check(inferred, from: models[0], to: models[1]).possible == false)
        #expect(try !InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred))
        let destination = folder.url.appendingPathComponent("h2.sqlite")
        try MigrationManager.migrateStore(from: url, sourceModel: models[0], to: destination, destinationModel: models[1],
                                          mappingModel: inferred.mappingModel)
        let migrated = ManagedObjectContext(store: try PersistentStore.open(at: destination, model: models[1]))
        let media = try migrated.fetch(FetchRequest(entityName: "Media", sortDescriptors: [SortDescriptor("name")]))
        #expect(media.map { "\($0.entity.name):\($0.value(forKey: "name")!.displayText)" } == ["Photo:cat", "Video:party", "Photo:sunset"])
        #expect(media[1].value(forKey: "seconds") == .double(12.5))
        #expect(Set(media.compactMap(\.objectID.primaryKey)) == [1, 2, 3])
    }

    /// Note to Note, copying the title: the manual mapping of the two-version models below.
    private static func titleMapping(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> MappingModel {
        MappingModel(name: "Manual", entityMappings: [
            EntityMapping(name: "NoteToNote", sourceEntityName: "Note", destinationEntityName: "Note",
                          attributeMappings: [PropertyMapping(name: "title", valueExpression: .source("title"))]),
        ], sourceEntityHashes: source.entityVersionHashes, destinationEntityHashes: destination.entityVersionHashes)
    }

    @Test("a destination that does not validate fails the migration and leaves no file")
    func validationFailure() throws {
        let folder = try TemporaryFolder()
        let bundle = folder.url.appendingPathComponent("V.xcdatamodeld")
        try ModelFiles.writeVersion("V", entities: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#, in: bundle)
        try ModelFiles.writeVersion("V v2", entities: #"<entity name="Note"><attribute name="title" attributeType="String"/></entity>"#, in: bundle)
        try folder.write(ModelFiles.currentVersion("V v2"), to: "V.xcdatamodeld/.xccurrentversion")
        let models = try ModelFileReader.read(at: bundle).versions
        let url = folder.url.appendingPathComponent("v.sqlite")
        let store = try PersistentStore.create(at: url, model: models[0])
        let context = ManagedObjectContext(store: store)
        _ = try context.insertObject(entityName: "Note")
        try context.save()
        try store.close()
        let mapping = Self.titleMapping(from: models[0], to: models[1])
        let destination = folder.url.appendingPathComponent("v2.sqlite")
        let error = try #require(throws: MigrationError.self) {
            try MigrationManager.migrateStore(from: url, sourceModel: models[0], to: destination, destinationModel: models[1], mappingModel: mapping)
        }
        guard case .validation(let failure) = error else { Issue.record("not a validation failure: \(error)"); return }
        #expect(failure.problems.map(\.description) == ["Note.title: 1 object without a value, but a value is required"])
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
    /// A store of five notes with the second and fourth deleted (gaps, as deletions leave them),
    /// the next version's model and the manual mapping between them.
    private func notesWithGaps(in folder: TemporaryFolder) throws -> (url: URL, models: [ManagedObjectModel], mapping: MappingModel) {
        let bundle = folder.url.appendingPathComponent("K.xcdatamodeld")
        try ModelFiles.writeVersion("K", entities: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#, in: bundle)
        try ModelFiles.writeVersion("K v2", entities: #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#, in: bundle)
        try folder.write(ModelFiles.currentVersion("K v2"), to: "K.xcdatamodeld/.xccurrentversion")
        let models = try ModelFileReader.read(at: bundle).versions
        let url = folder.url.appendingPathComponent("k.sqlite")
        let store = try PersistentStore.create(at: url, model: models[0])
        let context = ManagedObjectContext(store: store)
        let notes = try (1...5).map { number in
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.string("note \(number)"), forKey: "title")
            return note
        }
        try context.save()
        context.delete(notes[1])
        context.delete(notes[3])
        try context.save()
        try store.close()
        return (url, models, Self.titleMapping(from: models[0], to: models[1]))
    }

    @Test("objects keep their source keys when one mapping makes their hierarchy; objects made afterwards get new keys")
    func sourceKeysKept() throws {
        let folder = try TemporaryFolder()
        let (url, models, mapping) = try notesWithGaps(in: folder)
        let destination = folder.url.appendingPathComponent("k2.sqlite")
        try MigrationManager.migrateStore(from: url, sourceModel: models[0], to: destination, destinationModel: models[1], mappingModel: mapping)

        let migrated = try PersistentStore.open(at: destination, model: models[1])
        let after = ManagedObjectContext(store: migrated)
        let kept = try after.fetch(FetchRequest(entityName: "Note")).map { ($0.objectID.primaryKey, $0.value(forKey: "title")) }
        #expect(kept.map(\.0) == [1, 3, 5])
        #expect(kept.map(\.1) == [.string("note 1"), .string("note 3"), .string("note 5")])
        let added = try after.insertObject(entityName: "Note")
        try after.save()
        #expect(added.objectID.primaryKey == 6)
        try migrated.close()
    }

    @Test("keys kept from the source may be far apart or near Int64's end: the migration takes them in a few batches, never overflowing")
    func sparseSourceKeys() throws {
        let folder = try TemporaryFolder()
        let (url, models, mapping) = try notesWithGaps(in: folder)
        let store = try PersistentStore.open(at: url, model: models[0])
        try store.database.write { db in
            try db.execute(sql: "UPDATE ZNOTE SET Z_PK = 1000000000000 WHERE Z_PK = 3")
            try db.execute(sql: "UPDATE ZNOTE SET Z_PK = 9223372036854775806 WHERE Z_PK = 5")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 9223372036854775806")
        }
        try store.close()
        var batches = 0
        let destination = folder.url.appendingPathComponent("k2.sqlite")
        try MigrationManager.migrateStore(from: url, sourceModel: models[0], to: destination, destinationModel: models[1],
                                          mappingModel: mapping, progress: { if $0.stage == .creatingObjects { batches += 1 } })
        #expect(batches == 3, "one batch per key that starts a range")
        let migrated = try PersistentStore.open(at: destination, model: models[1])
        let keys = try ManagedObjectContext(store: migrated).fetch(FetchRequest(entityName: "Note")).map(\.objectID.primaryKey)
        #expect(keys == [1, 1_000_000_000_000, 9_223_372_036_854_775_806])
        try migrated.close()
    }

    @Test("an entity mapping migrates exactly its source entity's objects, not its sub-entities' (three levels)",
          arguments: [false, true])
    func entityMappingsTakeTheirOwnEntityOnly(perObject: Bool) throws {
        let folder = try TemporaryFolder()
        let model = try ModelFileReader.read(at: try ModelFiles.writeVersion("Garage", entities: """
            <entity name="Vehicle"><attribute name="name" attributeType="String"/></entity>
            <entity name="Car" parentEntity="Vehicle"><attribute name="doors" optional="YES" attributeType="Integer 16"/></entity>
            <entity name="SportsCar" parentEntity="Car"><attribute name="topSpeed" optional="YES" attributeType="Integer 32"/></entity>
            """, in: folder.url)).current
        let url = folder.url.appendingPathComponent("garage.sqlite")
        let store = try PersistentStore.create(at: url, model: model)
        let context = ManagedObjectContext(store: store)
        for (entity, name) in [("Vehicle", "cart"), ("Car", "sedan"), ("SportsCar", "racer"), ("Car", "van"), ("Vehicle", "bike")] {
            let object = try context.insertObject(entityName: entity)
            object.setValue(.string(name), forKey: "name")
        }
        try context.save()
        try store.close()
        // As Xcode writes them: one mapping per entity, without any sub-entity option.
        let mappings = ["Vehicle", "Car", "SportsCar"].map { entity in
            EntityMapping(name: "\(entity)To\(entity)", sourceEntityName: entity, destinationEntityName: entity,
                          policyClassName: perObject ? "Tests.PerObjectRelationships" : nil,
                          attributeMappings: model.allAttributes(of: entity).map { PropertyMapping(name: $0.name, valueExpression: .source($0.name)) })
        }
        var policies = MigrationPolicyRegistry()
        policies.register(PerObjectRelationships.self, as: "Tests.PerObjectRelationships")
        let destination = folder.url.appendingPathComponent("copy.sqlite")
        try MigrationManager.migrateStore(from: url, sourceModel: model, to: destination, destinationModel: model,
                                          mappingModel: MappingModel(name: "Garage", entityMappings: mappings,
                                                                     sourceEntityHashes: model.entityVersionHashes,
                                                                     destinationEntityHashes: model.entityVersionHashes),
                                          policies: policies)
        let copy = ManagedObjectContext(store: try PersistentStore.open(at: destination, model: model))
        let names = try copy.fetch(FetchRequest(entityName: "Vehicle", sortDescriptors: [SortDescriptor("name")]))
            .map { "\($0.entity.name):\($0.value(forKey: "name")?.displayText ?? "?")" }
        #expect(names == ["Vehicle:bike", "Vehicle:cart", "SportsCar:racer", "Car:sedan", "Car:van"])
    }
}
