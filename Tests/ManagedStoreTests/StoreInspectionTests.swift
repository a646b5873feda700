import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// What the engine tells about a store without reading objects: whether someone else wrote it,
/// and the SQL of its tables.
@Suite struct StoreInspectionTests {
    @Test("the change token moves when another connection commits, not for this store's own saves")
    func externalChangeToken() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let context = ManagedObjectContext(store: store)
        let before = try store.externalChangeToken()
        try context.insertObject(entityName: "Tag").setValue(.string("own"), forKey: "name")
        try context.save()
        #expect(try store.externalChangeToken() == before)

        let other = try DatabaseQueue(path: store.url.path)
        try other.write { db in try db.execute(sql: "UPDATE ZTAG SET ZNAME = 'theirs', Z_OPT = Z_OPT + 1") }
        try other.close()
        #expect(try store.externalChangeToken() != before)
    }

    @Test("the table definitions are the store's CREATE TABLE statements, by name, the files left as they were")
    func tableDefinitions() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        try store.close()
        let filesBefore = StoreFiles(url: store.url).existing
        let statements = try StoreTableDefinitions.statements(ofStoreAt: store.url)
        let names = statements.compactMap { $0.split(separator: " ").dropFirst(2).first.map(String.init) }
        #expect(names.contains("ZTAG") && names.contains("Z_PRIMARYKEY") && names.contains("Z_METADATA"))
        #expect(names == names.sorted())
        #expect(statements.allSatisfy { $0.hasPrefix("CREATE TABLE ") })
        #expect(StoreFiles(url: store.url).existing == filesBefore)
    }
}
