import Foundation
import ManagedStore
import Testing
import TestSupport

/// A save of an object read from the store writes the columns that changed, and only those.
@Suite("Saves write what changed")
struct ChangedColumnsSaveTests {
    @Test("editing one attribute of a row with a big blob updates that column and Z_OPT, not the blob")
    func titleEditLeavesTheBlob() throws {
        let folder = try TemporaryFolder()
        let statements = LogCollector()
        let store = try LibraryModel.createStore(in: folder, options: StoreOptions(sqlLogger: statements.logger))
        let writer = ManagedObjectContext(store: store)
        let sample = try writer.insertObject(entityName: "Sample")
        sample.setValue(.string("before"), forKey: "string")
        sample.setValue(.data(Data(repeating: 7, count: 1 << 20)), forKey: "binary")
        sample.setValue(.integer(3), forKey: "i32")
        try writer.save()

        let editor = ManagedObjectContext(store: store)
        let read = try #require(try editor.fetch(FetchRequest(entityName: "Sample")).first)
        read.setValue(.string("after"), forKey: "string")
        try editor.save()

        let update = try #require(statements.messages.last { $0.hasPrefix("sql: UPDATE ZSAMPLE ") })
        #expect(update.contains("SET ZSTRING = ?, Z_OPT = ? WHERE"), "\(update)")
        #expect(!update.contains("ZBINARY") && !update.contains("ZI32") && !update.contains("ZDATE"), "\(update)")

        let check = try #require(try ManagedObjectContext(store: store).fetch(FetchRequest(entityName: "Sample")).first)
        #expect(check.value(forKey: "string") == .string("after"))
        #expect(check.value(forKey: "binary") == .data(Data(repeating: 7, count: 1 << 20)))
        #expect(check.value(forKey: "i32") == .integer(3))
    }
}
