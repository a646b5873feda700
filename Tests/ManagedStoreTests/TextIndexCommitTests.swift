import Foundation
import ManagedStore
import Testing
import TestSupport

/// What keeping the text index up to date costs a save in fsyncs: the side file can be rebuilt
/// from the store, so its commits wait for none (issue 34: a rollback journal took four per save,
/// on the app's key path).
@Suite(.enabled(if: SyscallTrace.straceWorks, "skipped: strace cannot trace here (strace -f true failed): install strace and allow ptrace"))
struct TextIndexCommitTests {
    private static let books = TextIndexConfiguration(entityName: "Book", attributes: ["title"], orderAttribute: "pages")

    private static func addBook(_ title: String, pages: Int64, to context: ManagedObjectContext, index: TextSearchIndex) throws {
        let book = try context.insertObject(entityName: "Book")
        book.setValue(.string(title), forKey: "title")
        book.setValue(.integer(pages), forKey: "pages")
        try context.save()
        try index.refresh(objects: [try #require(book.objectID.primaryKey)])
    }

    @Test("saves brought into the index sync none of its files, and a search finds every one")
    func savesSyncNothingOfTheSideFile() throws {
        let folder = try TemporaryFolder()
        let context = ManagedObjectContext(store: try LibraryModel.createStore(in: folder))
        let index = try TextSearchIndex(beside: context, configuration: Self.books)
        try Self.addBook("First edition", pages: 1, to: context, index: index)

        let lines = try SyscallWatch.lines(of: ["fsync", "fdatasync"]) {
            for pages in Int64(2)...4 { try Self.addBook("Edition \(pages)", pages: pages, to: context, index: index) }
        }
        let storeSyncs = lines.filter { $0.contains("<\(context.store.url.path)") }
        let sideSyncs = lines.filter { $0.contains("<\(index.url.path)") }
        #expect(!storeSyncs.isEmpty, "the store's own commits are synced, so strace saw the saves: \(lines)")
        #expect(sideSyncs.isEmpty, "\(sideSyncs)")
        #expect(try index.primaryKeys(matching: "edition")?.count == 4)
    }
}
