import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// `saveInOneTransaction`: saves in batches that commit together or not at all, as one history
/// transaction, invisible to other connections until the commit.
@Suite("A save in batches inside one transaction")
struct OneTransactionSaveTests {
    let folder: TemporaryFolder
    let model: ManagedObjectModel
    let url: URL

    init() throws {
        folder = try TemporaryFolder()
        model = try ModelFileReader.read(at: try ModelFiles.writeVersion("Notes", entities: PersistentHistoryTests.entities, in: folder.url)).current
        url = folder.url.appendingPathComponent("Notes.sqlite")
        try PersistentStore.create(at: url, model: model).close()
    }

    private struct Counts: Equatable {
        var notes: Int, links: Int, transactions: Int, changes: Int
    }

    /// What another connection sees: only committed rows.
    private func counts() throws -> Counts {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            // The many-to-many join table, whichever entity number it is named after.
            let joinTable = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z_[0-9]*'") ?? "missing"
            return Counts(notes: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE") ?? -1,
                   links: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(joinTable)") ?? -1,
                   transactions: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION") ?? -1,
                   changes: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE") ?? -1)
        }
    }

    private func addNotes(_ count: Int, tag: ManagedObject, to context: ManagedObjectContext) throws {
        for index in 0..<count {
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.string("note \(index)"), forKey: "title")
            note.setValue(.uuid(UUID()), forKey: "identifier")
            note.addObject(tag, forKey: "tags")
        }
    }

    @Test("three batches commit together as one history transaction; others see nothing before the commit")
    func batchesCommitTogether() throws {
        let store = try PersistentStore.open(at: url, model: model, options: StoreOptions(recordsPersistentHistory: true))
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        try context.saveInOneTransaction {
            let tag = try context.insertObject(entityName: "Tag")
            tag.setValue(.string("work"), forKey: "name")
            for _ in 0..<3 {
                try addNotes(4, tag: tag, to: context)
                try context.save()
                #expect(!context.hasChanges)
                #expect(try counts() == Counts(notes: 0, links: 0, transactions: 0, changes: 0))
            }
            // The batches are visible to the context's own reads.
            #expect(try context.fetch(FetchRequest(entityName: "Note")).count == 12)
        }
        // 12 notes and the tag inserted, the tag updated by the two later batches (its notes).
        #expect(try counts() == Counts(notes: 12, links: 12, transactions: 1, changes: 15))
    }

    @Test("an error after two batches leaves the store as it was, the context reset; the next save works")
    func errorRollsBackEveryBatch() throws {
        struct Stop: Error {}
        let store = try PersistentStore.open(at: url, model: model, options: StoreOptions(recordsPersistentHistory: true))
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        let tag = try context.insertObject(entityName: "Tag")
        tag.setValue(.string("kept"), forKey: "name")
        try context.save()
        let before = try counts()
        #expect(throws: Stop.self) {
            try context.saveInOneTransaction {
                for _ in 0..<2 {
                    try addNotes(3, tag: tag, to: context)
                    try context.save()
                }
                throw Stop()
            }
        }
        #expect(try counts() == before)
        #expect(!context.hasChanges)
        let kept = try #require(try context.fetch(FetchRequest(entityName: "Tag")).first)
        #expect(kept.objects(forKey: "notes").isEmpty)
        try addNotes(1, tag: kept, to: context)
        try context.save()
        #expect(try counts().notes == 1)
    }

    @Test("a save in one transaction inside another is refused")
    func nestedIsRefused() throws {
        let store = try PersistentStore.open(at: url, model: model, options: StoreOptions(recordsPersistentHistory: true))
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        #expect(throws: ContextError.self) {
            try context.saveInOneTransaction { try context.saveInOneTransaction {} }
        }
        #expect(try counts().notes == 0)
    }
}
