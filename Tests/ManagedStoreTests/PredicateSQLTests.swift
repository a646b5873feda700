import Foundation
import ManagedStore
import Testing
import TestSupport

/// The SQL a predicate becomes: the model's tables and columns as quoted identifiers, constants
/// as bound values, never spliced into the text; and the rows it selects are the right ones.
@Suite struct PredicateSQLTests {
    /// A title that would end a quoted string and run a statement if it were spliced into SQL.
    private static let hostileTitle = "O'Brien; DROP TABLE ZITEM; --"

    /// Books titled `hostileTitle` on shelves "kitchen" and "hall", and "pans" in the kitchen;
    /// returns the kitchen's book of that title.
    private static func fill(_ context: ManagedObjectContext) throws -> ObjectID {
        var kitchenBook: ManagedObject?
        for (shelfName, titles) in [("kitchen", [hostileTitle, "pans"]), ("hall", [hostileTitle])] {
            let shelf = try context.insertObject(entityName: "Shelf")
            shelf.setValue(.string(shelfName), forKey: "name")
            for title in titles {
                let book = try context.insertObject(entityName: "Book")
                book.setValue(.string(title), forKey: "title")
                book.setObject(shelf, forKey: "shelf")
                if shelfName == "kitchen", title == hostileTitle { kitchenBook = book }
            }
        }
        try context.save()
        return try #require(kitchenBook).objectID
    }

    @Test("a fetch quotes the tables and columns it reads, binds its constants, and finds the right object")
    func fetchQuotesIdentifiersAndBindsConstants() throws {
        let folder = try TemporaryFolder()
        let statements = LogCollector()
        let context = ManagedObjectContext(store: try LibraryModel.createStore(in: folder, options: StoreOptions(sqlLogger: statements.logger)))
        let expected = try Self.fill(context)
        let predicate = try ObjectPredicate(format: "title == \"\(Self.hostileTitle)\" AND shelf.name == 'kitchen' AND shelf != nil")
        let found = try context.fetch(FetchRequest(entityName: "Book", predicate: predicate, sortDescriptors: [SortDescriptor("title")]))
        #expect(found.map(\.objectID) == [expected])

        let select = try #require(statements.messages.last { $0.hasPrefix("sql: SELECT t0.* FROM") })
        #expect(select.contains(#"FROM "ZITEM" t0"#), "\(select)")
        #expect(select.contains(#"(t0."ZTITLE" IS ?)"#), "\(select)")
        #expect(select.contains(#"(SELECT t1."ZNAME" FROM "ZSHELF" t1 WHERE t1.Z_PK = t0."ZSHELF") IS ?"#), "\(select)")
        // A test for nil binds no NULL: SQLite reads only the column's type, not its value.
        #expect(select.contains(#"(t0."ZSHELF" IS NOT NULL)"#), "\(select)")
        #expect(select.contains(#"ORDER BY t0."ZTITLE" ASC"#), "\(select)")
        #expect(!select.contains("O'Brien") && !select.contains("kitchen"), "\(select)")
    }

    @Test("a count and a batched fetch run the same quoted SQL and agree with the fetch")
    func countAndBatchedFetchQuoteIdentifiers() throws {
        let folder = try TemporaryFolder()
        let statements = LogCollector()
        let context = ManagedObjectContext(store: try LibraryModel.createStore(in: folder, options: StoreOptions(sqlLogger: statements.logger)))
        _ = try Self.fill(context)
        let request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "title == \"\(Self.hostileTitle)\""))
        #expect(try context.count(request) == 2)
        let count = try #require(statements.messages.last { $0.hasPrefix("sql: SELECT COUNT(*)") })
        #expect(count.contains(#"FROM "ZITEM" t0 WHERE"#) && count.contains(#"(t0."ZTITLE" IS ?)"#), "\(count)")
        let batched = try context.fetchBatched(request)
        #expect(batched.count == 2)
        let keys = try #require(statements.messages.last { $0.hasPrefix("sql: SELECT t0.Z_PK") })
        #expect(keys.contains(#"FROM "ZITEM" t0 WHERE"#) && !keys.contains("O'Brien"), "\(keys)")
    }
}
