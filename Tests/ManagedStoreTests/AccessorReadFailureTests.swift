import Foundation
import ManagedStore
import Testing
import TestSupport

/// Property accessors cannot throw (their shape is Core Data's), so a row or a relationship that
/// cannot be read while one runs used to vanish: the object read as empty and a save could write
/// that emptiness back. Now the failure is kept, `checkReads()` throws it, and `save()` refuses.
@Suite("Reads that fail inside accessors")
struct AccessorReadFailureTests {
    /// The app's store of two notes (`TwoNoteStore`), damaged by `sql`, opened.
    private static func damagedStore(_ sql: String, in folder: TemporaryFolder) throws -> PersistentStore {
        let (url, model) = try TwoNoteStore.make(in: folder)
        try StoreDamage.apply(sql: sql, to: url)
        return try PersistentStore.open(at: url, model: model)
    }

    @Test("a fault whose row cannot be read stays a fault; checkReads and save throw the cause")
    func unreadableFault() throws {
        let folder = try TemporaryFolder()
        let store = try Self.damagedStore(StoreDamage.textInOptimisticLock.sql, in: folder)
        let context = ManagedObjectContext(store: store)
        let note = try #require(context.object(with: ObjectID(entityName: "Note", primaryKey: 1)))
        #expect(note.value(forKey: "title") == nil)

        let error = try #require(throws: ContextError.self) { try context.checkReads() }
        guard case .readFailed(let entity, let primaryKey, let cause) = error else {
            Issue.record("expected a failed read, got \(error)")
            return
        }
        #expect(entity == "Note" && primaryKey == 1)
        #expect((cause as? StoreError)?.mismatch
            == .unreadableValue(table: "ZNOTE", column: "Z_OPT", primaryKey: 1, found: "\"x\""))
        try context.checkReads()

        note.setValue(.string("renamed"), forKey: "title")
        #expect(throws: ContextError.self) { try context.save() }
        context.rollback()

        // Still a fault: once the row is readable again, the object reads it.
        try StoreDamage.apply(sql: "UPDATE ZNOTE SET Z_OPT = 1 WHERE Z_PK = 1", to: store.url)
        #expect(note.value(forKey: "title") == .string("first"))
        try context.checkReads()
    }

    @Test("members that cannot be read come back empty, are read again next time, and are reported")
    func unreadableMembers() throws {
        let folder = try TemporaryFolder()
        let store = try Self.damagedStore("UPDATE ZATTACHMENT SET Z_ENT = NULL WHERE Z_PK = 1", in: folder)
        let context = ManagedObjectContext(store: store)
        let note = try #require(try context.existingObject(with: ObjectID(entityName: "Note", primaryKey: 1)))
        #expect(note.objects(forKey: "attachments").isEmpty)
        let error = try #require(throws: ContextError.self) { try context.checkReads() }
        guard case .readFailed(let entity, let primaryKey, let cause) = error else {
            Issue.record("expected a failed read, got \(error)")
            return
        }
        #expect(entity == "Note" && primaryKey == 1)
        #expect((cause as? StoreError)?.mismatch == .rowEntity(table: "ZATTACHMENT", primaryKey: 1, entityNumber: nil))

        _ = note.objects(forKey: "attachments")
        #expect(throws: ContextError.self) { try context.checkReads() }
    }
}
