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
        let error = try #require(throws: MigrationError.self) {
            try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred)
        }
        guard case .failed(_, _, let cause as FailureCause) = error, case .sqlite(let code, let extended, _, let statement) = cause else {
            Issue.record("\(error)")
            return
        }
        #expect(code == 19 && extended == 2067, "SQLITE_CONSTRAINT_UNIQUE: \(error)")
        #expect(statement?.contains("UNIQUE") == true, "the failing statement is kept: \(statement ?? "none")")
        #expect(try StoreDump.contents(of: PersistentStore.open(at: url, model: models[0])) == before)
    }

    @Test("a copying migration refuses a duplicate of a unique attribute: SQLITE_CONSTRAINT, and no new store")
    func copyingRefusesDuplicates() throws {
        let folder = try TemporaryFolder()
        let unique = #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="count" optional="YES" attributeType="Integer 64"/><uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints></entity>"#
        let models = try versions([note, #"<entity name="Album"><attribute name="name" optional="YES" attributeType="String"/></entity>"# + unique], in: folder)
        let source = try store(models[0], in: folder) { context in
            for title in ["same", "other", "same"] { try insert(context, "Note", ["title": .string(title)]) }
        }
        let destination = folder.url.appendingPathComponent("copy.sqlite")
        let error = try #require(throws: MigrationError.self) {
            try MigrationManager.migrateStore(from: source, sourceModel: models[0], to: destination, destinationModel: models[1],
                                              mappingModel: MappingInference.infer(from: models[0], to: models[1]).mappingModel)
        }
        guard case .failed(_, _, let cause as FailureCause) = error, case .sqlite(let code, let extended, _, let statement) = cause else {
            Issue.record("\(error)")
            return
        }
        #expect(code == 19 && extended == 2067, "SQLITE_CONSTRAINT_UNIQUE: \(error)")
        #expect(statement?.contains("UNIQUE") == true, "the failing statement is kept: \(statement ?? "none")")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
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
    @Test("a many-to-many on an entity with sub-entities: its join table is created, renamed and kept once")
    func joinTableOnHierarchy() throws {
        let folder = try TemporaryFolder()
        let items = #"<entity name="Item"><attribute name="title" attributeType="String"/><relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>LABELS</entity><entity name="Book" parentEntity="Item"><attribute name="pages" optional="YES" attributeType="Integer 32"/></entity><entity name="Tool" parentEntity="Item"><attribute name="weight" optional="YES" attributeType="Double"/></entity><entity name="Tag"><attribute name="name" attributeType="String"/><relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/></entity>"#
        let labels = #"<relationship name="labels" optional="YES" toMany="YES" destinationEntity="Label" inverseName="items" inverseEntity="Label"/>"#
        let label = #"<entity name="Label"><attribute name="name" attributeType="String"/><relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="labels" inverseEntity="Item"/></entity>"#
        let album = #"<entity name="Album"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let models = try versions([items.replacingOccurrences(of: "LABELS", with: ""),
                                   album + items.replacingOccurrences(of: "LABELS", with: labels) + label], in: folder)
        let url = try store(models[0], in: folder) { context in
            let book = try context.insertObject(entityName: "Book")
            book.setValue(.string("b"), forKey: "title")
            let tag = try context.insertObject(entityName: "Tag")
            tag.setValue(.string("t"), forKey: "name")
            book.addObject(tag, forKey: "tags")
        }
        let inferred = try MappingInference.infer(from: models[0], to: models[1])
        #expect(try InPlaceMigration.check(inferred, from: models[0], to: models[1]).possible)
        #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred))
        let store = try PersistentStore.open(at: url, model: models[1])
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        let book = try #require(try context.fetch(FetchRequest(entityName: "Book")).first)
        #expect(book.objects(forKey: "tags").map { $0.value(forKey: "name") } == [.string("t")])
        let newLabel = try context.insertObject(entityName: "Label")
        newLabel.setValue(.string("l"), forKey: "name")
        book.addObject(newLabel, forKey: "labels")
        try context.save()
        #expect(try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Z_2LABELS") } == 1)
    }

    /// Core Data's persistent-history bookkeeping, as it writes it beside a model's own rows.
    private func addHistoryTables(to url: URL) throws {
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR )")
            try db.execute(sql: "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)")
            try db.execute(sql: "INSERT INTO ATRANSACTION VALUES (1, 16002, 1, 700000000.0, 'app')")
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16001, 'CHANGE', 0, 5), (16002, 'TRANSACTION', 0, 1)")
        }
    }

    private func primaryKeyRows(_ url: URL) throws -> [String] {
        try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
                .map { "\($0["Z_ENT"] as Int) \($0["Z_NAME"] as String) \($0["Z_SUPER"] as Int) \($0["Z_MAX"] as Int)" }
        }
    }

    @Test("in place and copied, migrations keep Z_PRIMARYKEY rows and tables the model does not own (persistent history)",
          arguments: [false, true])
    func keepsHistoryBookkeeping(copied: Bool) throws {
        let folder = try TemporaryFolder()
        let models = try versions([note, #"<entity name="Album"><attribute name="name" optional="YES" attributeType="String"/></entity>"# + note], in: folder)
        let source = try store(models[0], in: folder) { try insert($0, "Note", ["title": .string("a")]) }
        try addHistoryTables(to: source)
        let inferred = try MappingInference.infer(from: models[0], to: models[1])
        let url = copied ? folder.url.appendingPathComponent("copy.sqlite") : source
        if copied {
            try MigrationManager.migrateStore(from: source, sourceModel: models[0], to: url, destinationModel: models[1],
                                              mappingModel: inferred.mappingModel)
        } else {
            #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred))
        }
        #expect(try primaryKeyRows(url) == ["16001 CHANGE 0 5", "16002 TRANSACTION 0 1"])
        let model = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT").map { "\($0["Z_ENT"] as Int) \($0["Z_NAME"] as String) \($0["Z_MAX"] as Int)" }
        }
        #expect(model == ["1 Album 0", "2 Note 1"])
        let history = try DatabaseQueue(path: url.path).read { db in
            (try String.fetchOne(db, sql: "SELECT ZAUTHOR FROM ATRANSACTION"),
             try db.indexes(on: "ATRANSACTION").map(\.name))
        }
        #expect(history.0 == "app")
        #expect(history.1 == ["Z_TRANSACTION_TransactionTimestampIndex"])
    }

    @Test("in place keeps the real persistent-history tables and Z_PRIMARYKEY rows Apple wrote in SampleModel2", SharedFixtures.required)
    func keepsRealHistoryBookkeeping() throws {
        let folder = try TemporaryFolder()
        _ = try folder.copyStore(SharedFixtures.url("coredataplus-samplemodel2/SampleModel2_V1.sqlite"), as: "apple.sqlite")
        let models = try versions([note, note + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#], in: folder)
        let url = try store(models[0], in: folder) { try insert($0, "Note", ["title": .string("a")]) }
        // The history tables exactly as Apple wrote them (definitions, indexes, rows), and their
        // Z_PRIMARYKEY rows, put beside this model's own.
        try DatabaseQueue(path: url.path).writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS apple", arguments: [folder.url.appendingPathComponent("apple.sqlite").path])
            let definitions = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM apple.sqlite_master WHERE tbl_name LIKE 'A%' AND sql IS NOT NULL ORDER BY type DESC")
            for definition in definitions {
                try db.execute(sql: definition["sql"])
                if definition["type"] == "table" {
                    try db.execute(sql: "INSERT INTO main.\(definition["name"] as String) SELECT * FROM apple.\(definition["name"] as String)")
                }
            }
            try db.execute(sql: "INSERT INTO main.Z_PRIMARYKEY SELECT * FROM apple.Z_PRIMARYKEY WHERE Z_ENT > 16000")
            try db.execute(sql: "DETACH DATABASE apple")
        }
        let history = {
            try DatabaseQueue(path: url.path).read { db in
                try ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"].map { table in
                    try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY Z_PK").map(\.description)
                } + [try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name LIKE 'A%' ORDER BY name")]
            }
        }
        let before = (rows: try primaryKeyRows(url), history: try history())
        #expect(before.rows == ["16001 CHANGE 0 5468", "16002 TRANSACTION 0 1", "16003 TRANSACTIONSTRING 0 2"])
        #expect(before.history[0].count > 1_000)
        #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1],
                                             inferred: MappingInference.infer(from: models[0], to: models[1])))
        #expect(try primaryKeyRows(url) == before.rows)
        #expect(try history() == before.history)
    }
    @Test("renamed relationships keep their links: foreign keys and join tables are renamed in place", arguments: [false, true])
    func renamedRelationships(manyToMany: Bool) throws {
        let folder = try TemporaryFolder()
        let inverse = manyToMany ? #"toMany="YES""# : #"maxCount="1""#
        let pair = { (name: String, identifier: String) in
            #"<entity name="Note"><attribute name="title" attributeType="String"/><relationship name="\#(name)" optional="YES" toMany="YES"\#(identifier) destinationEntity="Tag" inverseName="note" inverseEntity="Tag"/></entity><entity name="Tag"><attribute name="name" attributeType="String"/><relationship name="note" optional="YES" \#(inverse) destinationEntity="Note" inverseName="\#(name)" inverseEntity="Note"/></entity>"#
        }
        let models = try versions([pair("tags", ""), pair("labels", #" elementID="tags""#)], in: folder)
        let url = try store(models[0], in: folder) { context in
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.string("n"), forKey: "title")
            for name in ["a", "b"] {
                let tag = try context.insertObject(entityName: "Tag")
                tag.setValue(.string(name), forKey: "name")
                note.addObject(tag, forKey: "tags")
            }
        }
        let names = { (model: ManagedObjectModel, key: String) throws -> Set<AttributeValue> in
            let store = try PersistentStore.open(at: url, model: model)
            defer { try? store.close() }
            let context = ManagedObjectContext(store: store)
            let note = try #require(try context.fetch(FetchRequest(entityName: "Note")).first)
            return Set(note.objects(forKey: key).compactMap { $0.value(forKey: "name") })
        }
        #expect(try names(models[0], "tags") == [.string("a"), .string("b")])
        let inferred = try MappingInference.infer(from: models[0], to: models[1])
        #expect(inferred.changes == ["renamed relationship Note.tags to Note.labels"])
        #expect(try InPlaceMigration.migrate(storeAt: url, from: models[0], to: models[1], inferred: inferred))
        #expect(try names(models[1], "labels") == [.string("a"), .string("b")])
    }
}
