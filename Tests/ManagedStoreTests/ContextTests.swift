import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Reverses bytes: a value transformer whose stored form differs from its value.
struct ReversedBytesTransformer: AttributeValueTransformer {
    func encode(_ value: Any) throws -> Data {
        guard let text = value as? String else { throw NotAString() }
        return Data(text.utf8.reversed())
    }

    func decode(_ data: Data) throws -> Any {
        String(decoding: data.reversed(), as: UTF8.self)
    }

    struct NotAString: Error {}
}

final class Shelf: ManagedObject {
    @Attribute("name") var name: String
    @ToMany("items") var items: [ManagedObject]
    @ToOne("owner") var owner: ManagedObject?

    override func awakeFromInsert() {
        name = "New shelf"
    }
}

@Suite("Managed object context")
struct ContextTests {
    let folder: TemporaryFolder
    let store: PersistentStore
    let context: ManagedObjectContext

    static let transformers = ValueTransformers(["ReversedBytes": ReversedBytesTransformer()])

    init() throws {
        folder = try TemporaryFolder()
        store = try LibraryModel.createStore(in: folder)
        context = ManagedObjectContext(store: store, entityClasses: ["Shelf": Shelf.self], valueTransformers: Self.transformers)
    }

    /// A second context on a fresh connection to the same file: sees only what was saved.
    private func reopened() throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore.open(at: store.url, model: store.model),
                             entityClasses: ["Shelf": Shelf.self], valueTransformers: Self.transformers)
    }

    private func book(_ title: String, pages: Int64 = 10) throws -> ManagedObject {
        let book = try context.insertObject(entityName: "Book")
        book.setValue(.string(title), forKey: "title")
        book.setValue(.integer(pages), forKey: "pages")
        return book
    }

    private func tag(_ name: String) throws -> ManagedObject {
        let tag = try context.insertObject(entityName: "Tag")
        tag.setValue(.string(name), forKey: "name")
        return tag
    }

    @Test("inserting applies defaults and awakeFromInsert; typed and untyped views agree")
    func insertDefaults() throws {
        let book = try context.insertObject(entityName: "Book")
        #expect(book.value(forKey: "pages") == .integer(0))
        let shelf = try context.insert(Shelf.self, entityName: "Shelf")
        #expect(shelf.name == "New shelf")
        shelf.name = "Kitchen"
        #expect(shelf.value(forKey: "name") == .string("Kitchen"))
        #expect(throws: ContextError.self) { try context.insertObject(entityName: "Item") }
        #expect(throws: ContextError.self) { try context.insertObject(entityName: "Nope") }
    }

    @Test("every attribute type survives a save and a fresh read")
    func attributeRoundTrip() throws {
        let sample = try context.insertObject(entityName: "Sample")
        let values: [String: AttributeValue] = [
            "i16": .integer(-32768), "i32": .integer(2_000_000_000), "i64": .integer(9_000_000_000_000),
            "decimal": .decimal(Decimal(string: "12.5")!), "double": .double(3.25), "float": .double(-1.5),
            "string": .string("笔记 – Ünïcode 🙂"), "flag": .bool(true),
            "date": .date(Date(timeIntervalSinceReferenceDate: 700_000_000.5)),
            "binary": .data(Data([0, 1, 2, 255])), "uuid": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            "uri": .uri(URL(string: "https://example.org/notes?id=1")!),
        ]
        for (key, value) in values { sample.setValue(value, forKey: key) }
        try sample.setTransformedValue("hello", forKey: "blob")
        try context.save()

        let other = try reopened()
        let fresh = try #require(try other.fetch(FetchRequest(entityName: "Sample")).first)
        for (key, value) in values {
            #expect(fresh.value(forKey: key) == value, "\(key)")
        }
        #expect(try fresh.transformedValue(forKey: "blob") as? String == "hello")
        #expect(fresh.value(forKey: "blob") == .data(Data("olleh".utf8)))
        let raw = try store.database.read { db in try Row.fetchOne(db, sql: "SELECT ZDATE, ZUUID, ZFLAG FROM ZSAMPLE")! }
        #expect(raw["ZDATE"] as Double == 700_000_000.5)
        #expect((raw["ZUUID"] as Data).count == 16)
        #expect(raw["ZFLAG"] as Int == 1)
    }

    @Test("value transformers belong to the context given them: another context on the store refuses the attribute, naming the transformer")
    func transformersPerContext() throws {
        let sample = try context.insertObject(entityName: "Sample")
        try sample.setTransformedValue("hello", forKey: "blob")
        try context.save()
        let without = ManagedObjectContext(store: try PersistentStore.open(at: store.url, model: store.model))
        let fresh = try #require(try without.fetch(FetchRequest(entityName: "Sample")).first)
        #expect(fresh.value(forKey: "blob") == .data(Data("olleh".utf8)))
        #expect {
            try fresh.transformedValue(forKey: "blob")
        } throws: { error in
            guard case ContextError.refused(.noTransformerNamed(let name, "Sample", "blob")) = error else { return false }
            return name == "ReversedBytes"
        }
        let with = try reopened()
        #expect(try with.fetch(FetchRequest(entityName: "Sample")).first?.transformedValue(forKey: "blob") as? String == "hello")
    }

    @Test("one object per row: fetching twice gives the same instance")
    func identityMap() throws {
        _ = try book("One")
        try context.save()
        let first = try context.fetch(FetchRequest(entityName: "Book"))
        let second = try context.fetch(FetchRequest(entityName: "Item"))
        #expect(first.count == 1)
        #expect(first[0] === second[0])
    }

    @Test("saving assigns primary keys unique across a hierarchy and counts saves in Z_OPT")
    func primaryKeysAndOptimisticVersions() throws {
        let book = try book("B")
        let tool = try context.insertObject(entityName: "Tool")
        tool.setValue(.string("T"), forKey: "title")
        #expect(book.objectID.isTemporary)
        try context.save()
        #expect(book.objectID.primaryKey == 1)
        #expect(tool.objectID.primaryKey == 2)
        book.setValue(.string("B2"), forKey: "title")
        try context.save()
        let (max, opt) = try store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'"),
             try Int.fetchOne(db, sql: "SELECT Z_OPT FROM ZITEM WHERE Z_PK = 1"))
        }
        #expect(max == 2)
        #expect(opt == 2)
    }

    @Test("one-to-many relationships are kept on both sides, and ordered ones keep their order")
    func oneToMany() throws {
        let kitchen = try context.insert(Shelf.self, entityName: "Shelf")
        let hall = try context.insert(Shelf.self, entityName: "Shelf")
        let a = try book("A"), b = try book("B"), c = try book("C")
        c.setObject(kitchen, forKey: "shelf")
        kitchen.addObject(a, forKey: "items")
        kitchen.items += [b]
        #expect(kitchen.items.map { $0.value(forKey: "title") } == [.string("C"), .string("A"), .string("B")])
        #expect(a.object(forKey: "shelf") === kitchen)
        a.setObject(hall, forKey: "shelf")
        #expect(kitchen.items.count == 2 && hall.items.count == 1)
        try context.save()

        let other = try reopened()
        let kitchenAgain = try #require(try other.fetch(FetchRequest(entityName: "Shelf")).first { ($0 as? Shelf)?.items.count == 2 } as? Shelf)
        #expect(kitchenAgain.items.map { $0.value(forKey: "title") } == [.string("C"), .string("B")])
        #expect(kitchenAgain.items.allSatisfy { $0.entity.name == "Book" })
    }

    @Test("many-to-many relationships are stored in a join table and read from either side")
    func manyToMany() throws {
        let a = try book("A"), b = try book("B")
        let red = try tag("red"), blue = try tag("blue")
        a.addObject(red, forKey: "tags")
        a.addObject(blue, forKey: "tags")
        blue.addObject(b, forKey: "items")
        #expect(Set(blue.objects(forKey: "items").map(\.objectID)) == Set([a.objectID, b.objectID]))
        try context.save()
        let rows = try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Z_1TAGS") }
        #expect(rows == 3)

        a.removeObject(blue, forKey: "tags")
        #expect(blue.objects(forKey: "items").map(\.objectID) == [b.objectID])
        try context.save()
        let other = try reopened()
        let blueAgain = try #require(try other.fetch(FetchRequest(entityName: "Tag", predicate: ObjectPredicate(format: "name == 'blue'"))).first)
        #expect(blueAgain.objects(forKey: "items").map { $0.value(forKey: "title") } == [.string("B")])
    }

    @Test("adding to a to-many: a member once however often added; after a remove, a rollback and a save the same holds")
    func membershipAcrossChanges() throws {
        let a = try book("A"), b = try book("B")
        let red = try tag("red")
        for _ in 0..<3 { red.addObject(a, forKey: "items") }
        red.addObject(b, forKey: "items")
        #expect(red.objects(forKey: "items").map(\.objectID) == [a.objectID, b.objectID])
        try context.save()
        red.addObject(a, forKey: "items") // the keys are permanent now: still the same member
        #expect(red.objects(forKey: "items").count == 2)
        red.removeObject(a, forKey: "items")
        red.addObject(a, forKey: "items")
        #expect(red.objects(forKey: "items").map(\.objectID) == [b.objectID, a.objectID])
        red.removeObject(a, forKey: "items")
        context.rollback()
        #expect(red.objects(forKey: "items").map(\.objectID) == [a.objectID, b.objectID])
        red.addObject(a, forKey: "items")
        red.removeObject(b, forKey: "items")
        red.addObject(b, forKey: "items")
        #expect(red.objects(forKey: "items").map(\.objectID) == [a.objectID, b.objectID])
        try context.save()
        let rows = try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Z_1TAGS") }
        #expect(rows == 2)
    }

    @Test("adding one member to a relationship of many writes one join row, not one per member")
    func oneJoinRowPerAddition() throws {
        let recorder = SQLRecorder()
        var options = StoreOptions()
        options.sqlRecorder = recorder
        let recordedFolder = try TemporaryFolder()
        let recorded = ManagedObjectContext(store: try LibraryModel.createStore(in: recordedFolder, options: options))
        let red = try recorded.insertObject(entityName: "Tag")
        red.setValue(.string("red"), forKey: "name")
        for index in 0..<300 {
            let book = try recorded.insertObject(entityName: "Book")
            book.setValue(.string("Book \(index)"), forKey: "title")
            book.setValue(.integer(10), forKey: "pages")
            red.addObject(book, forKey: "items")
        }
        try recorded.save()
        let before = recorder.statements.count
        let latest = try recorded.insertObject(entityName: "Book")
        latest.setValue(.string("Latest"), forKey: "title")
        latest.setValue(.integer(1), forKey: "pages")
        red.addObject(latest, forKey: "items")
        try recorded.save()
        let joinWrites = recorder.statements.dropFirst(before).filter { $0.sql.contains("INTO \"Z_1TAGS\"") || $0.sql.contains("INTO Z_1TAGS") }
        #expect((1...2).contains(joinWrites.count), "\(joinWrites.map(\.sql))")
        let rows = try recorded.store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Z_1TAGS") }
        #expect(rows == 301)
    }

    @Test("one-to-one relationships move: taking a badge from its holder leaves the holder without")
    func oneToOne() throws {
        let ann = try context.insertObject(entityName: "Owner"), bob = try context.insertObject(entityName: "Owner")
        ann.setValue(.string("Ann"), forKey: "name")
        bob.setValue(.string("Bob"), forKey: "name")
        let gold = try tag("gold")
        ann.setObject(gold, forKey: "badge")
        #expect(gold.object(forKey: "holder") === ann)
        gold.setObject(bob, forKey: "holder")
        #expect(ann.object(forKey: "badge") == nil)
        #expect(bob.object(forKey: "badge") === gold)
        try context.save()
        let other = try reopened()
        let goldAgain = try #require(try other.fetch(FetchRequest(entityName: "Tag")).first)
        #expect(goldAgain.object(forKey: "holder")?.value(forKey: "name") == .string("Bob"))
    }

    @Test("a to-one into a hierarchy records the target's entity, so it comes back as the right kind")
    func toOneIntoHierarchy() throws {
        let tool = try context.insertObject(entityName: "Tool")
        tool.setValue(.string("hammer"), forKey: "title")
        let red = try tag("red")
        red.setObject(tool, forKey: "featured")
        try context.save()
        let stored = try store.database.read { try Int.fetchOne($0, sql: "SELECT Z1_FEATURED FROM ZTAG") }
        #expect(stored == 3)
        let other = try reopened()
        let featured = try #require(try other.fetch(FetchRequest(entityName: "Tag")).first?.object(forKey: "featured"))
        #expect(featured.entity.name == "Tool")
        #expect(featured.value(forKey: "title") == .string("hammer"))
    }

    @Test("fetching an entity includes its sub-entities unless told otherwise")
    func subentities() throws {
        _ = try book("B")
        let tool = try context.insertObject(entityName: "Tool")
        tool.setValue(.string("T"), forKey: "title")
        tool.setValue(.double(2.5), forKey: "weight")
        try context.save()
        #expect(try context.count(FetchRequest(entityName: "Item")) == 2)
        #expect(try context.count(FetchRequest(entityName: "Tool")) == 1)
        #expect(try context.count(FetchRequest(entityName: "Item", includesSubentities: false)) == 0)
        let other = try reopened()
        let fetchedTool = try #require(try other.fetch(FetchRequest(entityName: "Tool")).first)
        #expect(fetchedTool.value(forKey: "weight") == .double(2.5))
    }

    @Test("Cascade deletes related objects, Nullify removes the deleted object from inverses")
    func cascadeAndNullify() throws {
        let shelf = try context.insert(Shelf.self, entityName: "Shelf")
        let a = try book("A"), b = try book("B")
        let red = try tag("red")
        shelf.items = [a, b]
        red.addObject(a, forKey: "items")
        try context.save()

        context.delete(shelf)
        #expect(a.isDeleted && b.isDeleted)
        #expect(red.objects(forKey: "items").isEmpty)
        try context.save()
        #expect(try context.count(FetchRequest(entityName: "Item")) == 0)
        #expect(try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM Z_1TAGS") } == 0)
        #expect(try reopened().count(FetchRequest(entityName: "Tag")) == 1)
    }

    @Test("Deny refuses to delete an object that still has related objects")
    func deny() throws {
        let owner = try context.insertObject(entityName: "Owner")
        owner.setValue(.string("Ann"), forKey: "name")
        let shelf = try context.insert(Shelf.self, entityName: "Shelf")
        shelf.owner = owner
        try context.save()

        context.delete(owner)
        let error = try #require(throws: ValidationFailure.self) { try context.save() }
        #expect(error.problems.map(\.property) == ["shelves"])
        #expect(error.problems.map(\.objectID) == [owner.objectID])
        #expect(error.description.contains("Owner.shelves: cannot delete the object"))
        context.rollback()
        #expect(!owner.isDeleted)

        context.delete(shelf)
        context.delete(owner)
        try context.save()
        #expect(try context.count(FetchRequest(entityName: "Owner")) == 0)
    }

    @Test("validation names entity, property and reason for every problem")
    func validation() throws {
        let book = try context.insertObject(entityName: "Book")
        book.setValue(.string("too big"), forKey: "pages")
        book.setValue(.integer(40_000), forKey: "weight")
        book.setValue(.string("x"), forKey: "color")
        let owner = try context.insertObject(entityName: "Owner")
        owner.setValue(.string("Bo"), forKey: "name")
        for _ in 0..<4 { owner.addObject(try context.insertObject(entityName: "Shelf"), forKey: "shelves") }
        book.addObject(owner, forKey: "shelf")
        let error = try #require(throws: ValidationFailure.self) { try context.save() }
        let described = Set(error.problems.map(\.description))
        #expect(error.problems.first { $0.property == "title" }?.objectID == book.objectID)
        #expect(described.contains("Book.title: a value is required"))
        #expect(described.contains("Book.color: the entity has no such attribute"))
        #expect(described.contains { $0.hasPrefix("Book.pages: the string too big does not fit a Integer 32 attribute") })
        #expect(described.contains { $0.hasPrefix("Book.weight: the integer 40000 does not fit a Integer 16") })
        #expect(described.contains("Owner.shelves: holds 4 objects, more than the maximum 3"))
        #expect(described.contains("Book.shelf: the entity has no to-many relationship of that name"))
        #expect(try reopened().count(FetchRequest(entityName: "Item")) == 0)
    }

    @Test("a save that fails in the database writes nothing and keeps the changes for another try")
    func atomicSave() throws {
        _ = try tag("red")
        try context.save()
        let before = try StoreDump.contents(of: store)
        _ = try book("A")
        _ = try tag("red")
        let error = try #require(throws: ContextError.self) { try context.save() }
        #expect(error.message.hasPrefix("the save was rolled back, nothing was written"))
        guard case .saveFailed(let cause) = error else {
            Issue.record("expected a failed save keeping its cause, got \(error)")
            return
        }
        #expect(cause is DatabaseError)
        #expect(try StoreDump.contents(of: store) == before)
        #expect(context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try context.count(FetchRequest(entityName: "Tag")) == 1)
    }

    @Test("rollback restores saved values, removes inserted objects and brings deleted ones back")
    func rollback() throws {
        let a = try book("A")
        try context.save()
        a.setValue(.string("changed"), forKey: "title")
        let b = try book("B")
        #expect(a.changedKeys == ["title"])
        #expect(context.hasChanges)
        context.rollback()
        #expect(a.value(forKey: "title") == .string("A"))
        #expect(b.managedObjectContext == nil)
        #expect(try context.count(FetchRequest(entityName: "Book")) == 1)
        context.delete(a)
        #expect(try context.count(FetchRequest(entityName: "Book")) == 0)
        context.rollback()
        #expect(try context.count(FetchRequest(entityName: "Book")) == 1)
    }

    @Test("setting a value back to the saved one leaves no change")
    func hasChangesTracking() throws {
        let a = try book("A")
        try context.save()
        #expect(!context.hasChanges)
        a.setValue(.string("B"), forKey: "title")
        #expect(context.hasChanges && a.hasChanges)
        a.setValue(.string("A"), forKey: "title")
        #expect(!context.hasChanges && !a.hasChanges)
    }

    @Test("fetches see unsaved inserts, changes and deletes")
    func pendingChangesInFetches() throws {
        let a = try book("A", pages: 5), b = try book("B", pages: 50)
        try context.save()
        _ = try book("C", pages: 500)
        b.setValue(.integer(1), forKey: "pages")
        context.delete(a)
        let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "pages < 100"),
                                   sortDescriptors: [SortDescriptor("title", ascending: false)])
        #expect(try context.fetch(request).map { $0.value(forKey: "title") } == [.string("B")])
        #expect(try context.count(FetchRequest(entityName: "Book")) == 2)
    }

    @Test("sort, offset, limit and count are done by SQL")
    func windowing() throws {
        for index in 0..<20 { _ = try book(String(format: "%02d", index), pages: Int64(index % 4)) }
        try context.save()
        let request = FetchRequest(entityName: "Book", sortDescriptors: [SortDescriptor("pages"), SortDescriptor("title", ascending: false)],
                                   fetchLimit: 3, fetchOffset: 2)
        #expect(try context.fetch(request).map { $0.value(forKey: "title") } == [.string("08"), .string("04"), .string("00")])
        #expect(try context.count(request) == 3)
        #expect(try context.count(FetchRequest(entityName: "Book", predicate: ObjectPredicate(format: "pages == 3"))) == 5)
    }

    @Test("batched results read rows batch by batch and keep only a few batches in memory")
    func batchedFetch() throws {
        for index in 0..<500 { _ = try book(String(format: "%03d", index)) }
        try context.save()
        let fresh = try reopened()
        let results = try fresh.fetchBatched(FetchRequest(entityName: "Book", sortDescriptors: [SortDescriptor("title", ascending: false)],
                                                          fetchBatchSize: 20))
        #expect(results.count == 500)
        #expect(results.loadedBatchCount == 0)
        #expect(results[0].value(forKey: "title") == .string("499"))
        #expect(results.loadedBatchCount == 1)
        var titles: [AttributeValue?] = []
        for object in results { titles.append(object.value(forKey: "title")) }
        #expect(titles == (0..<500).reversed().map { .string(String(format: "%03d", $0)) })
        #expect(results.loadedBatchCount <= 4)
    }

    @Test("a row changed by another context since it was read is not overwritten")
    func optimisticLocking() throws {
        let a = try book("A")
        try context.save()
        let other = try reopened()
        let copy = try #require(try other.fetch(FetchRequest(entityName: "Book")).first)
        copy.setValue(.string("theirs"), forKey: "title")
        try other.save()
        a.setValue(.string("mine"), forKey: "title")
        let error = try #require(throws: ContextError.self) { try context.save() }
        #expect(error.message.contains("was changed or deleted by someone else"))
        guard case .conflict(let entity, let primaryKey) = error else {
            Issue.record("expected a conflict, got \(error)")
            return
        }
        #expect(entity == "Book" && primaryKey == a.objectID.primaryKey)
        #expect(try reopened().fetch(FetchRequest(entityName: "Book")).first?.value(forKey: "title") == .string("theirs"))
    }

    @Test("a fetch finished in memory takes any limit and offset without overflowing: Int.max, negative (none, as in SQL)")
    func extremeWindow() throws {
        for name in ["a", "b", "c"] { _ = try tag(name) }
        let request = { (limit: Int?, offset: Int) in
            FetchRequest(entityName: "Tag", sortDescriptors: [SortDescriptor("name")], fetchLimit: limit, fetchOffset: offset)
        }
        #expect(try context.fetch(request(.max, 1)).map { $0.value(forKey: "name") } == [.string("b"), .string("c")])
        #expect(try context.fetch(request(-1, 0)).count == 3)
        #expect(try context.fetch(request(nil, -5)).count == 3)
    }
}
