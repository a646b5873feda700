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
    let url: URL
    /// A new store of `PersistentHistoryTests`' notes and tags, recording history.
    let store: PersistentStore

    init() throws {
        folder = try TemporaryFolder()
        url = folder.url.appendingPathComponent("Notes.sqlite")
        let modelFile = try ModelFiles.writeVersion("Notes", entities: PersistentHistoryTests.entities, in: folder.url)
        let model = try ModelFileReader.read(at: modelFile).current
        // History tables are made by opening with tracking on, not by creating.
        try PersistentStore.create(at: url, model: model).close()
        store = try PersistentStore.open(at: url, model: model, options: StoreOptions(recordsPersistentHistory: true))
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
        // One change per object, as one save records: 12 notes and the tag inserted (the later
        // batches' updates of the tag are part of its insert).
        #expect(try counts() == Counts(notes: 12, links: 12, transactions: 1, changes: 13))
    }

    @Test("a stored tag given notes by two batches, its notes never read: one update change, every link written")
    func storedObjectUpdatedTwice() throws {
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        let tag = try context.insertObject(entityName: "Tag")
        tag.setValue(.string("kept"), forKey: "name")
        try context.save()
        context.reset()
        try context.saveInOneTransaction {
            for _ in 0..<2 {
                let stored = try #require(try context.fetch(FetchRequest(entityName: "Tag")).first)
                try addNotes(3, tag: stored, to: context)
                try context.save()
            }
        }
        #expect(try counts() == Counts(notes: 6, links: 6, transactions: 2, changes: 8))
        let updates = try store.history().last?.changes.filter { $0.kind == .update }
        #expect(updates?.count == 1 && updates?.first?.updatedProperties == ["notes"])
        context.reset()
        let reread = try #require(try context.fetch(FetchRequest(entityName: "Tag")).first)
        #expect(reread.objects(forKey: "notes").count == 6)
    }

    @Test("an error after two batches leaves the store as it was, the context reset; the next save works")
    func errorRollsBackEveryBatch() throws {
        struct Stop: Error {}
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
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        #expect(throws: ContextError.self) {
            try context.saveInOneTransaction { try context.saveInOneTransaction {} }
        }
        #expect(try counts().notes == 0)
    }
}
