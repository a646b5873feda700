import Foundation
import ManagedStore
import Testing
import TestSupport

/// A model version's store layout is a pure function of it: built the first time, then shared by
/// every `StoreSchema` of that version and its copies. Shared arrays have one buffer, so equal
/// buffer addresses show the layout was not built again.
@Suite("Store layout built once per model version")
struct StoreLayoutOnceTests {
    private func address<Element>(_ array: [Element]) -> UInt {
        array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("the schemas of a version and of its copies, and the stores opened with it, share the first layout")
    func layoutOnce() throws {
        let model = try LibraryModel.load()
        let copy = model
        let first = try StoreSchema(model: model)
        let second = try StoreSchema(model: copy)
        #expect(address(first.entities) == address(second.entities))
        #expect(address(first.tables) == address(second.tables))
        #expect(address(first.joinTables) == address(second.joinTables))

        let folder = try TemporaryFolder()
        let created = try LibraryModel.createStore(in: folder, options: StoreOptions(journalMode: .delete))
        try created.close()
        let opened = try PersistentStore.open(at: created.url, model: model)
        defer { try? opened.close() }
        #expect(address(opened.schema.entities) == address(first.entities))

        // The same file read again is another model value, laid out for itself: the check can fail.
        let other = try LibraryModel.load()
        #expect(address(try StoreSchema(model: other).entities) != address(first.entities))
    }
}
