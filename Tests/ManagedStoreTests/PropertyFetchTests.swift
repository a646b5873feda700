import Foundation
import ManagedStore
import Testing
import TestSupport

/// The dictionary-result fetch: chosen values straight from the rows, with to-many counts, in
/// the store's order, checked as strictly as fetched objects.
@Suite struct PropertyFetchTests {
    /// Shelves "a" (3 items), "b" (none), "c" (1 item); items tagged; a Sample with and without a date.
    private static func makeLibrary(in folder: TemporaryFolder) throws -> ManagedObjectContext {
        let context = ManagedObjectContext(store: try LibraryModel.createStore(in: folder))
        let red = try context.insertObject(entityName: "Tag")
        red.setValue(.string("red"), forKey: "name")
        let blue = try context.insertObject(entityName: "Tag")
        blue.setValue(.string("blue"), forKey: "name")
        for (name, itemCount) in [("a", 3), ("b", 0), ("c", 1)] {
            let shelf = try context.insertObject(entityName: "Shelf")
            shelf.setValue(.string(name), forKey: "name")
            for index in 0..<itemCount {
                let item = try context.insertObject(entityName: index == 0 ? "Tool" : "Book")
                item.setValue(.string("\(name)\(index) Café"), forKey: "title")
                item.setObject(shelf, forKey: "shelf")
                item.addObject(red, forKey: "tags")
                if index > 0 { item.addObject(blue, forKey: "tags") }
            }
        }
        let dated = try context.insertObject(entityName: "Sample")
        dated.setValue(.date(Date(timeIntervalSinceReferenceDate: 42)), forKey: "date")
        _ = try context.insertObject(entityName: "Sample")
        try context.save()
        return context
    }

    /// `title CONTAINS[cd] "CAFE"`: every item's title says "Café".
    private static let titleContainsCafe = ObjectPredicate.comparison(.keyPath(base: nil, components: ["title"]), .contains,
                                                                      .constant(.string("CAFE")), [.caseInsensitive, .diacriticInsensitive])

    private static func rows(_ context: ManagedObjectContext, _ request: PropertyFetchRequest) throws -> [PropertyRow] {
        var rows: [PropertyRow] = []
        try context.forEachRow(of: request) { rows.append($0) }
        return rows
    }

    @Test("attributes and to-many counts, through an inverse foreign key and through a join table")
    func countsBothStorageShapes() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        let shelves = try Self.rows(context, PropertyFetchRequest(entityName: "Shelf", properties: [.attribute("name"), .count("items")],
                                                                  sortDescriptors: [SortDescriptor("name")]))
        #expect(shelves.map(\.values) == [[.string("a"), .integer(3)], [.string("b"), .integer(0)], [.string("c"), .integer(1)]])
        let tags = try Self.rows(context, PropertyFetchRequest(entityName: "Tag", properties: [.attribute("name"), .count("items")],
                                                               sortDescriptors: [SortDescriptor("name", ascending: false)]))
        #expect(tags.map(\.values) == [[.string("red"), .integer(4)], [.string("blue"), .integer(2)]])
    }

    @Test("sub-entities are included unless turned off, each row names its own entity")
    func subentities() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        let items = try Self.rows(context, PropertyFetchRequest(entityName: "Item", properties: [.attribute("title")]))
        #expect(items.count == 4)
        #expect(Set(items.map(\.entityName)) == ["Book", "Tool"])
        let books = try Self.rows(context, PropertyFetchRequest(entityName: "Item", properties: [], predicate: nil,
                                                                includesSubentities: false))
        #expect(books.isEmpty, "Item is abstract: no row is an Item itself")
        #expect(try Self.rows(context, PropertyFetchRequest(entityName: "Book", properties: [])).count == 2)
    }

    @Test("a predicate as CONTAINS[cd] matches as the object fetch does, with keys, sort, limit and offset")
    func predicateSortAndWindow() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        let contains = Self.titleContainsCafe
        let sort = [SortDescriptor("shelf.name", ascending: false)]
        let expected = try context.fetch(FetchRequest(entityName: "Item", predicate: contains, sortDescriptors: sort))
            .compactMap(\.objectID.primaryKey)
        #expect(expected.count == 4)
        let all = try Self.rows(context, PropertyFetchRequest(entityName: "Item", properties: [], predicate: contains, sortDescriptors: sort))
        #expect(all.map(\.primaryKey) == expected)
        let page = try Self.rows(context, PropertyFetchRequest(entityName: "Item", properties: [], predicate: contains, sortDescriptors: sort,
                                                               fetchLimit: 2, fetchOffset: 1))
        #expect(page.map(\.primaryKey) == Array(expected.dropFirst().prefix(2)))
        let chosen = try Self.rows(context, PropertyFetchRequest(entityName: "Item", properties: [], primaryKeys: [expected[0], expected[3], 999]))
        #expect(Set(chosen.map(\.primaryKey)) == [expected[0], expected[3]])
    }

    @Test("keys only: the same objects in the same order as the rows, by predicate, sort, window and entity")
    func keysOnly() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        let contains = Self.titleContainsCafe
        let requests = [
            PropertyFetchRequest(entityName: "Item", properties: [.attribute("title")], predicate: contains,
                                 sortDescriptors: [SortDescriptor("title", ascending: false)], fetchLimit: 2, fetchOffset: 1),
            PropertyFetchRequest(entityName: "Book", properties: []),
            PropertyFetchRequest(entityName: "Item", properties: [], sortDescriptors: [SortDescriptor("shelf.name")]),
            PropertyFetchRequest(entityName: "Item", properties: [], includesSubentities: false),
        ]
        for request in requests {
            var keys: [Int64] = []
            try context.forEachPrimaryKey(of: request) { keys.append($0) }
            #expect(keys == (try Self.rows(context, request)).map(\.primaryKey))
        }
        var books: [Int64] = []
        try context.forEachPrimaryKey(of: requests[1]) { books.append($0) }
        #expect(books.count == 2, "only the Book rows of the shared Item table")
    }

    @Test("whether an attribute has a value, and values decoded as the attribute's type")
    func hasValueAndTypes() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        let samples = try Self.rows(context, PropertyFetchRequest(entityName: "Sample", properties: [.hasValue("date"), .attribute("date")],
                                                                  sortDescriptors: [SortDescriptor("date", ascending: false)]))
        #expect(samples.map(\.values) == [[.bool(true), .date(Date(timeIntervalSinceReferenceDate: 42))], [.bool(false), nil]])
    }

    @Test("what SQL cannot answer, and names the model lacks, are refused")
    func refusals() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        // A key path through a to-many relationship: the object fetch checks it in memory.
        let throughToMany = ObjectPredicate.comparison(.keyPath(base: nil, components: ["items", "title"]), .equal, .constant(.string("a0")), [])
        for request in [PropertyFetchRequest(entityName: "Nope", properties: []),
                        PropertyFetchRequest(entityName: "Shelf", properties: [.attribute("colour")]),
                        PropertyFetchRequest(entityName: "Shelf", properties: [.count("name")]),
                        PropertyFetchRequest(entityName: "Shelf", properties: [], predicate: throughToMany)] {
            #expect(throws: ContextError.self) { try Self.rows(context, request) }
        }
    }

    @Test("a damaged row is an error naming it, never skipped")
    func damagedRows() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        try context.store.close()
        try StoreDamage.apply(sql: "UPDATE ZSHELF SET Z_ENT = 77 WHERE ZNAME = 'b'", to: context.store.url)
        let reopened = ManagedObjectContext(store: try PersistentStore.open(at: context.store.url, model: context.model))
        let error = try #require(throws: StoreError.self) {
            try Self.rows(reopened, PropertyFetchRequest(entityName: "Shelf", properties: [.attribute("name")]))
        }
        guard case .rowEntity(table: "ZSHELF", primaryKey: _, entityNumber: .some(77))? = error.mismatch else {
            Issue.record("expected the row's entity to be refused, got \(error)")
            return
        }
        try reopened.store.close()
        try StoreDamage.apply(sql: "UPDATE ZSHELF SET Z_ENT = (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Shelf'), Z_OPT = 'x' WHERE ZNAME = 'b'",
                              to: context.store.url)
        let again = ManagedObjectContext(store: try PersistentStore.open(at: context.store.url, model: context.model))
        let optError = try #require(throws: StoreError.self) { try Self.rows(again, PropertyFetchRequest(entityName: "Shelf", properties: [])) }
        guard case .unreadableValue(table: "ZSHELF", column: "Z_OPT", primaryKey: _?, found: _)? = optError.mismatch else {
            Issue.record("expected Z_OPT to be refused, naming the row, got \(optError)")
            return
        }
    }
}

extension PropertyFetchTests {
    @Test("memberKeys reads each row's members' keys in the same statement; relatedTo keeps the rows holding one of the given objects")
    func membersAndMembership() throws {
        let folder = try TemporaryFolder()
        let context = try Self.makeLibrary(in: folder)
        var tagKeys: [String: Int64] = [:]
        try context.forEachRow(of: PropertyFetchRequest(entityName: "Tag", properties: [.attribute("name")])) { row in
            tagKeys[row.values[0].map(\.displayText) ?? ""] = row.primaryKey
        }
        let red = try #require(tagKeys["red"]), blue = try #require(tagKeys["blue"])
        let all = try Self.rows(context, PropertyFetchRequest(entityName: "Item", properties: [.attribute("title"), .memberKeys("tags")],
                                                              sortDescriptors: [SortDescriptor("title")]))
        #expect(all.map { $0.values[0]?.displayText ?? "" } == ["a0 Café", "a1 Café", "a2 Café", "c0 Café"])
        #expect(all.map { $0.memberKeys(at: 1) } == [[red], [red, blue].sorted(), [red, blue].sorted(), [red]])
        #expect(all.allSatisfy { $0.values[1] == nil && $0.memberKeys(at: 0).isEmpty })

        var blueOnly = PropertyFetchRequest(entityName: "Item", properties: [.attribute("title")], sortDescriptors: [SortDescriptor("title")])
        blueOnly.relatedTo = .init(relationship: "tags", primaryKeys: [blue])
        #expect(try Self.rows(context, blueOnly).map { $0.values[0]?.displayText ?? "" } == ["a1 Café", "a2 Café"])
        // Through a foreign key (the shelves' items), and with a predicate: both must hold.
        var shelvesWithItems = PropertyFetchRequest(entityName: "Shelf", properties: [.attribute("name")], sortDescriptors: [SortDescriptor("name")])
        shelvesWithItems.relatedTo = .init(relationship: "items", primaryKeys: try Self.rows(context, blueOnly).map(\.primaryKey))
        #expect(try Self.rows(context, shelvesWithItems).map { $0.values[0]?.displayText ?? "" } == ["a"])
        blueOnly.predicate = .comparison(.keyPath(base: nil, components: ["title"]), .equal, .constant(.string("a2 Café")), [])
        #expect(try Self.rows(context, blueOnly).count == 1)
        var unknown = blueOnly
        unknown.relatedTo = .init(relationship: "nothing", primaryKeys: [1])
        #expect(throws: ContextError.self) { try Self.rows(context, unknown) }
    }
}
