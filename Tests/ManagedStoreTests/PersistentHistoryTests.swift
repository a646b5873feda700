import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Persistent history as Core Data records it: one transaction per save, one change per object,
/// in Apple's tables, in the save's own SQLite transaction.
@Suite("Persistent history")
struct PersistentHistoryTests {
    static let entities = """
        <entity name="Note">
            <attribute name="title" attributeType="String"/>
            <attribute name="body" optional="YES" attributeType="String"/>
            <attribute name="identifier" attributeType="UUID" preserveAfterDeletion="YES"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="name" attributeType="String" preserveAfterDeletion="YES"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
        </entity>
        """

    let folder: TemporaryFolder
    let model: ManagedObjectModel
    let url: URL

    init() throws {
        folder = try TemporaryFolder()
        model = try ModelFileReader.read(at: try ModelFiles.writeVersion("Notes", entities: Self.entities, in: folder.url)).current
        url = folder.url.appendingPathComponent("Notes.sqlite")
        try PersistentStore.create(at: url, model: model).close()
    }

    private func open(tracking: Bool = true) throws -> PersistentStore {
        try PersistentStore.open(at: url, model: model, options: StoreOptions(recordsPersistentHistory: tracking))
    }

    private func note(_ title: String, in context: ManagedObjectContext, identifier: UUID = UUID()) throws -> ManagedObject {
        let note = try context.insertObject(entityName: "Note")
        note.setValue(.string(title), forKey: "title")
        note.setValue(.uuid(identifier), forKey: "identifier")
        return note
    }

    @Test("a store opened with tracking gets Apple's tables, indexes and Z_PRIMARYKEY rows")
    func tablesCreated() throws {
        let store = try open()
        defer { try? store.close() }
        let (tables, indexes, entities) = try store.database.read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'A%' ORDER BY name"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'A%' ORDER BY name"),
             try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT").map { "\($0[0] as Int) \($0[1] as String)" })
        }
        #expect(tables == ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"])
        #expect(indexes == ["ACHANGE_ZTRANSACTIONID_INDEX", "ATRANSACTION_ZAUTHORTS_INDEX", "ATRANSACTION_ZBUNDLEIDTS_INDEX",
                            "ATRANSACTION_ZCONTEXTNAMETS_INDEX", "ATRANSACTION_ZPROCESSIDTS_INDEX",
                            "Z_TRANSACTIONSTRING_UNIQUE_NAME", "Z_TRANSACTION_TransactionAuthorIndex",
                            "Z_TRANSACTION_TransactionTimestampIndex"])
        #expect(entities == ["16001 CHANGE", "16002 TRANSACTION", "16003 TRANSACTIONSTRING"])
        #expect(try store.history().isEmpty)
    }

    @Test("inserts, an update of some attributes, many-to-many links and a delete with tombstones, each save one transaction")
    func everyKindOfSave() throws {
        let store = try open()
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        context.name = "editor"
        context.transactionAuthor = "app"
        let identifier = UUID()
        let first = try note("First", in: context, identifier: identifier)
        let second = try note("Second", in: context)
        try context.save()

        first.setValue(.string("First, renamed"), forKey: "title")
        first.setValue(.string("a body"), forKey: "body")
        try context.save()

        let tag = try context.insertObject(entityName: "Tag")
        tag.setValue(.string("work"), forKey: "name")
        first.addObject(tag, forKey: "tags")
        context.transactionAuthor = "sync"
        try context.save()

        context.delete(first)
        try context.save()

        let history = try store.history()
        #expect(history.map(\.author) == ["app", "app", "sync", "sync"])
        #expect(history.allSatisfy { $0.contextName == "editor" && $0.processName == ProcessInfo.processInfo.processName })
        #expect(history.map(\.token) == history.map(\.token).sorted())

        let inserted = history[0].changes
        #expect(inserted.map(\.kind) == [.insert, .insert])
        #expect(Set(inserted.map(\.primaryKey)) == Set([first, second].compactMap(\.objectID.primaryKey)))

        let update = try #require(history[1].changes.only)
        #expect(update.kind == .update && update.entityName == "Note" && update.primaryKey == first.objectID.primaryKey)
        #expect(update.updatedProperties == ["body", "title"])

        let linking = history[2].changes
        #expect(linking.contains { $0.kind == .insert && $0.entityName == "Tag" })
        #expect(linking.contains { $0.kind == .update && $0.entityName == "Note" && $0.updatedProperties == ["tags"] })

        let deletion = try #require(history[3].changes.first { $0.entityName == "Note" })
        #expect(deletion.kind == .delete && deletion.primaryKey == first.objectID.primaryKey)
        #expect(deletion.tombstone == ["identifier": .uuid(identifier)])
        #expect(history[3].changes.contains { $0.kind == .update && $0.entityName == "Tag" && $0.updatedProperties == ["notes"] })
    }

    @Test("the rows are Core Data's: change types, entity numbers, interned strings, keys from Z_PRIMARYKEY")
    func rowsBySQL() throws {
        let store = try open()
        let context = ManagedObjectContext(store: store)
        context.transactionAuthor = "app"
        let first = try note("First", in: context)
        try context.save()
        first.setValue(.string("renamed"), forKey: "title")
        try context.save()
        try store.close()

        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.read { db in
            let changes = try Row.fetchAll(db, sql: "SELECT Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE ORDER BY Z_PK")
            let noteNumber = try Int.fetchOne(db, sql: "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'")
            #expect(changes.map { $0["ZCHANGETYPE"] as Int } == [0, 1])
            #expect(changes.allSatisfy { $0["Z_ENT"] == 16001 && $0["ZENTITY"] == noteNumber && $0["ZENTITYPK"] == first.objectID.primaryKey })
            #expect(changes.map { $0["ZTRANSACTIONID"] as Int } == [1, 2])
            #expect((changes[0]["ZCOLUMNS"] as Data?) == nil)
            // Note's stored properties by name: body, identifier, tags, title: title is bit 3.
            #expect((changes[1]["ZCOLUMNS"] as Data?) == Data([0b1000]))
            let authors = try String.fetchAll(db, sql: """
                SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS ORDER BY t.Z_PK
                """)
            #expect(authors == ["app", "app"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTIONSTRING WHERE ZNAME = 'app'") == 1)
            let maxima = try Row.fetchAll(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (16001, 16002) ORDER BY Z_ENT").map { $0[0] as Int }
            #expect(maxima == [2, 2])
        }
    }

    @Test("reading after a token and by author or context name; deleting before a token or a date")
    func readingAndDeleting() throws {
        let store = try open()
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        for (index, author) in ["app", "sync", "app"].enumerated() {
            context.transactionAuthor = author
            context.name = "context \(index)"
            _ = try note("Note \(index)", in: context)
            try context.save()
        }
        let all = try store.history()
        #expect(all.count == 3)
        #expect(try store.history(after: all[0].token).map(\.token) == Array(all.dropFirst().map(\.token)))
        #expect(try store.history(author: "sync").map(\.token) == [all[1].token])
        #expect(try store.history(contextName: "context 2").map(\.token) == [all[2].token])
        #expect(try store.deleteHistory(before: all[1].token) == 1)
        #expect(try store.history().map(\.token) == Array(all.dropFirst().map(\.token)))
        #expect(try store.deleteHistory(before: Date().addingTimeInterval(60)) == 2)
        #expect(try store.history().isEmpty)
        let orphans = try store.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ACHANGE") }
        #expect(orphans == 0)
    }

    @Test("a save that fails records nothing: no transaction without its changes, no change without its save")
    func failedSaveRecordsNothing() throws {
        let store = try open()
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        _ = try note("Kept", in: context)
        try context.save()
        // Another connection changes the row: this context's update loses the optimistic-lock race.
        let kept = try #require(try context.fetch(FetchRequest(entityName: "Note")).first)
        let other = try DatabaseQueue(path: url.path)
        try other.write { try $0.execute(sql: "UPDATE ZNOTE SET Z_OPT = Z_OPT + 1") }
        try other.close()
        kept.setValue(.string("lost"), forKey: "title")
        _ = try note("Also lost", in: context)
        #expect(throws: ContextError.self) { try context.save() }
        let counts = try store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE"))
        }
        #expect(counts.0 == 1 && counts.1 == 1)
    }

    @Test("a history write that fails rolls the save back with it: the note is not saved either")
    func historyFailureRollsBackTheSave() throws {
        let store = try open()
        defer { try? store.close() }
        try store.database.write { db in
            try db.execute(sql: "CREATE TRIGGER refuse AFTER INSERT ON ACHANGE BEGIN SELECT RAISE(ABORT, 'refused'); END")
        }
        let context = ManagedObjectContext(store: store)
        _ = try note("Not saved", in: context)
        #expect(throws: ContextError.self) { try context.save() }
        let counts = try store.database.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE"), try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION"))
        }
        #expect(counts.0 == 0 && counts.1 == 0)
    }

    @Test("a store opened without tracking before another process made history tables refuses its next save")
    func historyMadeMeanwhileRefusesUntrackedSaves() throws {
        let untracked = try open(tracking: false)
        defer { try? untracked.close() }
        #expect(untracked.writeRefusal == nil)
        try open(tracking: true).close()
        let context = ManagedObjectContext(store: untracked)
        _ = try note("Would be missing from the history", in: context)
        let error = try #require(throws: ContextError.self) { try context.save() }
        guard case .storeIsReadOnly(_, .historyTrackingOff) = error else { Issue.record("\(error)"); return }
        #expect(try untracked.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZNOTE") } == 0)
    }

    @Test("a store with history opened without tracking is read-only: reads work, a save is refused naming the option")
    func historyWithoutTrackingIsReadOnly() throws {
        let tracked = try open()
        let context = ManagedObjectContext(store: tracked)
        _ = try note("Tracked", in: context)
        try context.save()
        try tracked.close()
        let before = try Data(contentsOf: url)

        let store = try open(tracking: false)
        defer { try? store.close() }
        #expect(store.writeRefusal == .historyTrackingOff)
        let untracked = ManagedObjectContext(store: store)
        #expect(try untracked.fetch(FetchRequest(entityName: "Note")).count == 1)
        _ = try note("Untracked", in: untracked)
        let error = try #require(throws: ContextError.self) { try untracked.save() }
        guard case .storeIsReadOnly(_, .historyTrackingOff) = error else { Issue.record("\(error)"); return }
        #expect(error.description.contains("NSPersistentHistoryTrackingKey"))
        // SQLite itself refuses too: nothing reaches the file, whoever writes through the connection.
        #expect(throws: DatabaseError.self) { try store.database.write { try $0.execute(sql: "DELETE FROM ZNOTE") } }
        try store.close()
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a store without history stays writable and unchanged by opening without tracking")
    func noHistoryNoTables() throws {
        let store = try open(tracking: false)
        defer { try? store.close() }
        #expect(store.writeRefusal == nil)
        #expect(try !store.hasHistory())
        let context = ManagedObjectContext(store: store)
        _ = try note("Plain", in: context)
        try context.save()
        #expect(try !store.hasHistory())
    }
}

extension PersistentHistoryTests {
    @Test("Apple's history in SampleModel2 reads as Apple wrote it: one transaction of 5,468 inserts by xctest",
          SharedFixtures.required)
    func applesHistory() throws {
        let copy = try SampleModel2.copyStore(into: folder)
        let store = try PersistentStore.open(at: copy, model: try SampleModel2.versions(in: folder).versions[0],
                                             options: StoreOptions(isReadOnly: true))
        defer { try? store.close() }
        let history = try store.history()
        let transaction = try #require(history.only)
        #expect(transaction.bundleID == "com.apple.dt.xctest.tool")
        #expect(transaction.processName == "xctest")
        #expect(transaction.author == nil && transaction.contextName == nil)
        #expect(transaction.changes.count == 5468)
        #expect(transaction.changes.allSatisfy { $0.kind == .insert })
        let byEntity = Dictionary(grouping: transaction.changes, by: \.entityName).mapValues(\.count)
        #expect(byEntity == ["Book": 51, "GraphicNovel": 1, "Feedback": 444, "Page": 4970, "Author": 2])
    }

    @Test("Apple's history store opened writable without tracking refuses a save; with tracking a save is recorded after Apple's",
          SharedFixtures.required)
    func applesStoreWritten() throws {
        let copy = try SampleModel2.copyStore(into: folder)
        let model = try SampleModel2.versions(in: folder).versions[0]
        let untracked = try PersistentStore.open(at: copy, model: model)
        #expect(untracked.writeRefusal == .historyTrackingOff)
        try untracked.close()

        let store = try PersistentStore.open(at: copy, model: model, options: StoreOptions(recordsPersistentHistory: true))
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        context.transactionAuthor = "engine"
        let writer = try context.insertObject(entityName: "Feedback")
        for attribute in model.allAttributes(of: "Feedback") where !attribute.isOptional && attribute.type == .string {
            writer.setValue(.string("x"), forKey: attribute.name)
        }
        try context.save(validating: false)
        let history = try store.history()
        #expect(history.count == 2)
        #expect(history[1].author == "engine" && history[1].changes.map(\.kind) == [.insert])
        #expect(history[1].changes.first?.entityName == "Feedback")
    }
}

private extension Array {
    var only: Element? { count == 1 ? first : nil }
}

extension PersistentHistoryTests {
    @Test("an in-place migration that renumbers entities and renames a property rewrites the history to read the same")
    func inPlaceMigrationTranslatesHistory() throws {
        let store = try open()
        let context = ManagedObjectContext(store: store)
        let identifier = UUID()
        let first = try note("First", in: context, identifier: identifier)
        try context.save()
        first.setValue(.string("Renamed"), forKey: "title")
        try context.save()
        context.delete(first)
        try context.save()
        try store.close()

        // B: a new entity sorts first (Note's number changes), title is renamed heading.
        let renamed = Self.entities
            .replacingOccurrences(of: #"<attribute name="title" attributeType="String"/>"#,
                                  with: #"<attribute name="heading" attributeType="String" elementID="title"/>"#)
            + #"<entity name="Album"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
        let destination = try ModelFileReader.read(at: try ModelFiles.writeVersion("NotesB", entities: renamed, in: folder.url)).current
        let inferred = try MappingInference.infer(from: model, to: destination)
        #expect(try InPlaceMigration.migrate(storeAt: url, from: model, to: destination, inferred: inferred))
        let migrated = try PersistentStore.open(at: url, model: destination, options: StoreOptions(recordsPersistentHistory: true))
        defer { try? migrated.close() }
        #expect(migrated.schema.entity(named: "Note")?.number != store.schema.entity(named: "Note")?.number)
        let changes = try migrated.history().flatMap(\.changes)
        #expect(changes.map(\.entityName) == ["Note", "Note", "Note"])
        #expect(changes[1].updatedProperties == ["heading"])
        #expect(changes[2].tombstone == ["identifier": .uuid(identifier)])
    }
}
