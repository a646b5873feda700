import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// The engine's text index, configured for an entity that shares its table with others.
@Suite struct TextSearchIndexTests {
    /// Books index their titles, largest `pages` first; Tools live in the same table.
    private static let books = TextIndexConfiguration(entityName: "Book", attributes: ["title"], orderAttribute: "pages")

    private static func insert(_ entity: String, title: String, pages: Int64? = nil, into context: ManagedObjectContext) throws {
        let item = try context.insertObject(entityName: entity)
        item.setValue(.string(title), forKey: "title")
        if let pages { item.setValue(.integer(pages), forKey: "pages") }
    }

    private static func key(_ context: ManagedObjectContext, titled title: String) throws -> Int64 {
        let request = FetchRequest(entityName: "Item", predicate: .comparison(.keyPath(base: nil, components: ["title"]), .equal,
                                                                                .constant(.string(title)), []))
        return try #require(try context.fetch(request).first?.objectID.primaryKey)
    }

    /// A context on a new library store in `folder`.
    private static func libraryContext(in folder: TemporaryFolder) throws -> ManagedObjectContext {
        ManagedObjectContext(store: try LibraryModel.createStore(in: folder))
    }

    @Test("matches of the configured entity only, folded, in the order attribute's order, kept up to date")
    func configuredEntityOnly() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let context = ManagedObjectContext(store: store)
        try Self.insert("Book", title: "Crème brûlée", pages: 10, into: context)
        try Self.insert("Book", title: "CREME anglaise", pages: 300, into: context)
        try Self.insert("Tool", title: "crème whisk", into: context)
        try context.save()

        let index = try TextSearchIndex(beside: context, configuration: Self.books)
        let anglaise = try Self.key(context, titled: "CREME anglaise")
        let brulee = try Self.key(context, titled: "Crème brûlée")
        #expect(try index.primaryKeys(matching: "creme") == [anglaise, brulee])
        #expect(try index.primaryKeys(matching: "creme", limit: 1, offset: 1) == [brulee])
        #expect(try index.primaryKeys(matching: "whisk") == [])
        #expect(try index.primaryKeys(matching: "cr") == [anglaise, brulee], "two characters are found in the folded text")
        #expect(try index.primaryKeys(matching: "È", limit: 1) == [anglaise], "one character, folded, in the order")
        #expect(try index.primaryKeys(matching: "\u{301}") == nil, "a pattern that folds to nothing is every book's: the caller lists them")
        #expect(index.rebuiltEntryCount == 2)
        let mode = try FileManager.default.attributesOfItem(atPath: index.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // Another connection adds a book: the index notices through the change token.
        let other = ManagedObjectContext(store: try PersistentStore.open(at: store.url, model: store.model))
        try Self.insert("Book", title: "Crémeux", pages: 50, into: other)
        try other.save()
        let cremeux = try Self.key(other, titled: "Crémeux")
        #expect(try index.primaryKeys(matching: "CRÉME") == [anglaise, cremeux, brulee])
        #expect(index.rebuiltEntryCount == 3)

        // This connection's own save is followed by the caller's refresh.
        try Self.insert("Book", title: "Crème fraîche", pages: 1000, into: context)
        try context.save()
        let fraiche = try Self.key(context, titled: "Crème fraîche")
        try index.refresh(objects: [fraiche])
        #expect(try index.primaryKeys(matching: "crème") == [fraiche, anglaise, cremeux, brulee])
        #expect(index.rebuiltEntryCount == 3)
    }

    @Test("an index another process rebuilt in place (a migration marked it for rebuilding) is filled again by a process that had it open, not read empty")
    func rebuiltInPlaceElsewhere() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let context = ManagedObjectContext(store: store)
        try Self.insert("Book", title: "Dune", pages: 1, into: context)
        try context.save()
        let dune = try Self.key(context, titled: "Dune")
        let first = try TextSearchIndex(beside: context, configuration: Self.books)
        #expect(try first.primaryKeys(matching: "dune") == [dune])
        // What `StoreMigrator` does to an index it cannot trust, then another process opening it.
        try DatabaseQueue(path: first.url.path).write { db in try db.execute(sql: "DROP TABLE meta") }
        let other = ManagedObjectContext(store: try PersistentStore.open(at: store.url, model: store.model))
        _ = try TextSearchIndex(beside: other, configuration: Self.books)
        #expect(try first.primaryKeys(matching: "dune") == [dune], "the index emptied by the other process's rebuild answered")
    }

    @Test("an index of other attributes in the side file is rebuilt, not misread")
    func otherAttributesRebuild() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let context = ManagedObjectContext(store: store)
        let shelf = try context.insertObject(entityName: "Shelf")
        shelf.setValue(.string("kitchen"), forKey: "name")
        try Self.insert("Book", title: "Kitchen confidential", pages: 1, into: context)
        try context.save()
        let shelves = TextIndexConfiguration(entityName: "Shelf", attributes: ["name"], orderAttribute: "name")
        #expect(try TextSearchIndex(beside: context, configuration: shelves).primaryKeys(matching: "kitchen")?.count == 1)
        let index = try TextSearchIndex(beside: context, configuration: Self.books)
        #expect(try index.primaryKeys(matching: "kitchen") == [try Self.key(context, titled: "Kitchen confidential")])
        #expect(index.rebuiltEntryCount == 1)
    }

    @Test("the index of 3,000 books of a few hundred characters stays within twice the text it indexes, so near a store that holds it once (issue #38, bug 7: it was 3.4 times)")
    func indexStaysNearTheTextsSize() throws {
        let folder = try TemporaryFolder()
        let context = try Self.libraryContext(in: folder)
        let words = ["meeting", "groceries", "idea", "garden", "travel", "book", "call", "recipe", "project", "weekend",
                     "café", "naïve", "über", "笔记", "会议", "想法", "заметка", "идея", "🎉", "☕️"]
        var generator = SplitMix64(seed: 38)
        var textBytes = 0
        for pages in 0..<3_000 {
            let title = (0..<(10 + Int.random(in: 0..<60, using: &generator))).map { _ in words.randomElement(using: &generator) ?? "" }
                .joined(separator: " ")
            textBytes += title.utf8.count
            try Self.insert("Book", title: title, pages: Int64(pages), into: context)
        }
        try context.save()
        let index = try TextSearchIndex(beside: context, configuration: Self.books)
        var fractions: [Double] = []
        #expect(try index.build { fractions.append($0) } == 3_000)
        #expect(fractions.last == 1 && fractions == fractions.sorted(), "the build's progress rises to 1: \(fractions)")
        #expect(index.rebuiltEntryCount == 0, "a build is not a search's wait")
        let indexSize = try #require(try FileManager.default.attributesOfItem(atPath: index.url.path)[.size] as? Int)
        #expect(Double(indexSize) < 2 * Double(textBytes), "index \(indexSize) bytes for \(textBytes) bytes of text")
        #expect(try index.primaryKeys(matching: "CAFÉ NAÏVE")?.count == (try index.primaryKeys(matching: "cafe naive")?.count))
    }

    @Test("a pattern whose trigrams a book holds apart, but not together, does not match it (the index keeps no positions)")
    func trigramsApartAreNoMatch() throws {
        let folder = try TemporaryFolder()
        let context = try Self.libraryContext(in: folder)
        for (pages, title) in ["abc xbcd Über", "an abcd"].enumerated() { try Self.insert("Book", title: title, pages: Int64(pages + 1), into: context) }
        try context.save()
        let index = try TextSearchIndex(beside: context, configuration: Self.books)
        let apart = try Self.key(context, titled: "abc xbcd Über"), together = try Self.key(context, titled: "an abcd")
        #expect(try index.primaryKeys(matching: "abcd") == [together])
        #expect(try index.primaryKeys(matching: "ABC") == [together, apart])
        #expect(try index.primaryKeys(matching: "xbcd uber") == [apart])
        #expect(try index.primaryKeys(matching: "\"\"\"") == [])
    }
}
