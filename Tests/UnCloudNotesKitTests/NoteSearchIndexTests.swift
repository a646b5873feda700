import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// The search index beside the store answers exactly as the scan does, and follows every change.
@Suite struct NoteSearchIndexTests {
    /// A note book on a new store of the current version.
    private static func makeBook(in folder: TemporaryFolder) throws -> NoteBook {
        let url = folder.url.appendingPathComponent("notes.sqlite")
        return try UnCloudNotesStack(storeURL: url).open()
    }

    /// The reference answer: the engine's `title CONTAINS[cd] text OR body CONTAINS[cd] text`,
    /// evaluated by the engine's own predicate path, newest first.
    static func engineMatches(_ book: NoteBook, _ text: String) throws -> [NoteID] {
        let contains = { (key: String) in
            ObjectPredicate.comparison(.keyPath(base: nil, components: [key]), .contains, .constant(.string(text)),
                                       [.caseInsensitive, .diacriticInsensitive])
        }
        let request = FetchRequest(entityName: "Note", predicate: .or([contains("title"), contains("body")]),
                                   sortDescriptors: [SortDescriptor("dateCreated", ascending: false)])
        return try book.context.fetch(request).compactMap { $0.objectID.primaryKey.map(NoteID.init) }
    }

    private static func indexEntryCount(_ book: NoteBook) throws -> Int {
        let side = try DatabaseQueue(path: book.context.store.url.path + "-search")
        return try side.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry") ?? -1 }
    }

    @Test func searchesGiveTheScansNotesInTheScansOrder() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        var generator = SplitMix64(seed: 13)
        let pieces = ["cafe", "Café", "CAFÉ", "e\u{301}", "naïve", "NAÏVE", "Über", "über", "straße", "笔记", "会议", "想法",
                      "🎉", "☕️", "👍🏽", "👍", "Заметка", "заметка", "ß", "ﬁ", "a", "ab", "abc", " ", "\"", "x y", "İ", "ı"]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
        }
        func addNote(at date: Double) throws {
            try book.add(NoteDraft(title: text(Int.random(in: 1...4, using: &generator)), body: text(Int.random(in: 0...12, using: &generator))),
                         date: Date(timeIntervalSinceReferenceDate: date))
        }
        // Notes written in date order, then among older ones (some share a date, so ties are
        // ordered too), then many into one gap until the index must number its entries again.
        for index in 0..<60 { try addNote(at: Double(index / 3)) }
        _ = try book.noteIDs(matching: "cafe")
        for _ in 0..<40 { try addNote(at: Double(Int.random(in: -5...25, using: &generator))) }
        for step in 1...14 { try addNote(at: 1 - 1 / Double(1 << step)) }
        let all = try book.noteIDs()
        for _ in 0..<10 {
            try book.update(all[Int.random(in: 0..<all.count, using: &generator)], with: NoteDraft(title: text(2), body: text(5)))
        }
        var queries = pieces + ["afe", "CAF", "ïve", "AIV", "e ", "记会", "🎉☕", "\"\"x", "ss", "fi", "i̇", "zzz", "Заме"]
        for _ in 0..<60 {
            let source = text(3)
            let start = Int.random(in: 0..<max(source.count, 1), using: &generator)
            queries.append(String(source.dropFirst(start).prefix(Int.random(in: 1...5, using: &generator))))
        }
        var indexed = 0, long = 0, searched = 0
        for query in queries where !query.isEmpty {
            if !SearchFolding.caseAndAccentFolded(query).isEmpty { searched += 1 }
            let expected = try Self.engineMatches(book, query)
            #expect(try book.noteIDs(matching: query) == expected, "search for \(query.debugDescription)")
            #expect(try book.noteIDs(matching: query, usingIndex: false) == expected, "scan for \(query.debugDescription)")
            #expect(try book.noteIDs(matching: query, page: ListPage(limit: 7, offset: 3)) == Array(expected.dropFirst(3).prefix(7)),
                    "a page of the search for \(query.debugDescription)")
            var listed: [NoteID] = []
            try book.forEachRow(matching: query) { listed.append($0.id) }
            #expect(listed == expected, "list rows of the search for \(query.debugDescription)")
            if try book.searchIndex?.primaryKeys(matching: query) != nil { indexed += 1 }
            if SearchFolding.caseAndAccentFolded(query).unicodeScalars.count >= 3 { long += 1 }
        }
        // Every query went through the index (trigrams for three characters or more, its folded
        // text for shorter ones), none fell back to the scan.
        #expect(long > 20 && searched - long > 20)
        #expect(indexed == searched)
        #expect(book.searchIndex != nil, "the index never failed")
    }

    @Test func theIndexFollowsTheAppsAddsEditsAndDeletes() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        try book.add(NoteDraft(title: "Groceries", body: "milk"))
        #expect(try book.noteIDs(matching: "groc").count == 1)
        let note = try book.add(NoteDraft(title: "Crème brûlée", body: "sugar"))
        #expect(try book.noteIDs(matching: "CREME") == [note])
        try book.update(note, with: NoteDraft(title: "Tarte", body: "pommes"))
        #expect(try book.noteIDs(matching: "creme").isEmpty)
        #expect(try book.noteIDs(matching: "pomme") == [note])
        try book.delete(note)
        #expect(try book.noteIDs(matching: "pomme").isEmpty)
        #expect(try Self.indexEntryCount(book) == 1)
    }

    @Test func changesMadeThroughAnotherConnectionAreFound() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        let note = try book.add(NoteDraft(title: "First", body: "plain"))
        #expect(try book.noteIDs(matching: "plain").count == 1)
        // Another program (Core Data, a second process) writes the store.
        let other = try DatabaseQueue(path: book.context.store.url.path)
        try other.write { db in
            try db.execute(sql: "UPDATE ZNOTE SET ZBODY = 'Jalapeño', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", arguments: [note.number])
        }
        #expect(try book.noteIDs(matching: "plain").isEmpty)
        #expect(try book.noteIDs(matching: "jalapeno") == [note])
        try other.write { db in try db.execute(sql: "DELETE FROM ZNOTE") }
        #expect(try book.noteIDs(matching: "jalapeno").isEmpty)
    }

    @Test func aMissingOrForeignIndexIsRebuiltPrivate() throws {
        let folder = try TemporaryFolder()
        let url: URL
        do {
            let book = try Self.makeBook(in: folder)
            try book.add(NoteDraft(title: "Kept", body: "über"))
            url = book.context.store.url
            #expect(try book.noteIDs(matching: "kept").count == 1)
            try FileManager.default.removeItem(atPath: url.path + "-search")
            try book.add(NoteDraft(title: "Second", body: ""))
        }
        let side = URL(fileURLWithPath: url.path + "-search")
        // Saving notes makes no index: the first search does.
        #expect(!FileManager.default.fileExists(atPath: side.path))
        let book = try UnCloudNotesStack(storeURL: url).open()
        #expect(try book.noteIDs(matching: "UBER").count == 1)
        #expect(try book.noteIDs(matching: "second").count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: side.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // An index made from another store (the file replaced by a migration or a restore) is rebuilt.
        try DatabaseQueue(path: side.path).write { db in
            try db.execute(sql: "UPDATE meta SET value = 'another store'; INSERT INTO entry (pk, opt) VALUES (999, 1)")
        }
        let reopened = try UnCloudNotesStack(storeURL: url).open()
        #expect(try reopened.noteIDs(matching: "uber").count == 1)
        #expect(try Self.indexEntryCount(reopened) == 2)
    }

    @Test("a migration builds the index as its last stage, reported: the first search after it folds nothing (issue #38, bug 7)",
          arguments: [1, 3])
    func migrationBuildsTheIndex(fromVersion: Int) throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: fromVersion, in: folder)
        let side = url.path + "-search"
        var fractions: [Double] = []
        var indexed: Int?
        var finishedAfterIndexing = false
        let book = try UnCloudNotesStack(storeURL: url).open { event in
            switch event {
            case .indexingText(let fraction): fractions.append(fraction)
            case .textIndexed(let objects, _): indexed = objects
            case .finished: finishedAfterIndexing = indexed != nil
            default: break
            }
        }
        #expect(finishedAfterIndexing, "the index is built before the migration says it finished")
        #expect(fractions.first == 0 && fractions.last == 1, "\(fractions)")
        #expect(indexed == AppStores.notes.count)
        #expect(FileManager.default.fileExists(atPath: side))
        #expect(try book.noteIDs(matching: "SHOPP") == Self.engineMatches(book, "shopp"))
        #expect(try book.noteIDs(matching: "长长长").count == 1)
        #expect(book.searchIndex?.rebuiltEntryCount == 0, "the first search found the index built")
        let mode = try FileManager.default.attributesOfItem(atPath: side)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a new store starts with its empty index, which every save keeps: no search ever builds it (issue #38, bug 7)")
    func aNewStoreStartsWithItsIndex() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        #expect(FileManager.default.fileExists(atPath: book.context.store.url.path + "-search"))
        #expect(!book.searchIndexIsMissing)
        #expect(try Self.indexEntryCount(book) == 0)
        let note = try book.add(NoteDraft(title: "Crème", body: "brûlée"))
        let reopened = try UnCloudNotesStack(storeURL: book.context.store.url).open()
        #expect(try reopened.noteIDs(matching: "CREME BRU") == [] && reopened.noteIDs(matching: "brulee") == [note])
        #expect(reopened.searchIndex?.rebuiltEntryCount == 0)
    }

    @Test("a pin or a tag folds no text again, yet the index agrees with the store after it: reopened, nothing is folded (issue #34)")
    func pinFoldsNothing() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        let note = try book.add(NoteDraft(title: "Crème", body: "brûlée"))
        // Marks the note's folded body, which folding the note again would replace.
        let side = try DatabaseQueue(path: book.context.store.url.path + "-search")
        try side.write { db in try db.execute(sql: "UPDATE \(Self.bodyTable) SET text = 'marker'") }
        try book.setPinned(true, of: note)
        try book.changeTags(of: note, adding: ["dessert"])
        #expect(try side.read { db in try String.fetchOne(db, sql: "SELECT text FROM \(Self.bodyTable)") } == "marker", "the pin or the tag folded the text again")
        try side.write { db in try db.execute(sql: "UPDATE \(Self.bodyTable) SET text = 'brulee'") }
        try side.close()
        let reopened = try UnCloudNotesStack(storeURL: book.context.store.url).open()
        #expect(try reopened.noteIDs(matching: "brulee") == [note])
        #expect(reopened.searchIndex?.rebuiltEntryCount == 0, "the index took the pin's save count: nothing to fold again")
        // A change of the text is still folded at once.
        try reopened.update(note, with: NoteDraft(title: "Crème", body: "caramel"))
        #expect(try reopened.noteIDs(matching: "caramel") == [note] && reopened.noteIDs(matching: "brulee").isEmpty)
    }

    /// The side file's text table of the notes' bodies (the second indexed attribute).
    private static let bodyTable = "folded_1"

    @Test("a title-only save folds the title again, not the body: a 10 MB body is not folded for a title (issue #34)")
    func titleSaveFoldsTheTitleAlone() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        let note = try book.add(NoteDraft(title: "Crème", body: "brûlée"))
        let side = try DatabaseQueue(path: book.context.store.url.path + "-search")
        try side.write { db in try db.execute(sql: "UPDATE \(Self.bodyTable) SET text = 'marker'") }
        try book.update(note, with: NoteDraft(title: "Flan", body: "brûlée"))
        #expect(try side.read { db in try String.fetchOne(db, sql: "SELECT text FROM \(Self.bodyTable)") } == "marker",
                "the title's save folded the body again")
        #expect(try book.noteIDs(matching: "FLAN") == [note] && book.noteIDs(matching: "creme").isEmpty, "the title is folded at once")
        #expect(try book.noteIDs(matching: "fl") == [note] && book.noteIDs(matching: "ma") == [note], "short patterns find the title and the body")
        try side.write { db in try db.execute(sql: "UPDATE \(Self.bodyTable) SET text = 'brulee'") }
        try side.close()
        let reopened = try UnCloudNotesStack(storeURL: book.context.store.url).open()
        #expect(try reopened.noteIDs(matching: "brulee") == [note] && reopened.noteIDs(matching: "flan") == [note])
        #expect(reopened.searchIndex?.rebuiltEntryCount == 0, "the index took the title's save count: nothing to fold again")
        // A body's change is folded as well, the title kept.
        try reopened.update(note, with: NoteDraft(title: "Flan", body: "caramel"))
        #expect(try reopened.noteIDs(matching: "caramel") == [note] && reopened.noteIDs(matching: "flan") == [note])
        #expect(try reopened.noteIDs(matching: "brulee").isEmpty)
    }

    /// SQLite deletes the log of an empty database file when it opens it: this keeps that true of
    /// how the side file is made.
    @Test("a side file deleted by hand beside the write-ahead log a killed process left is made anew, not read through that log")
    func deletedSideFileBesideAStaleLog() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        let kept = try book.add(NoteDraft(title: "Kept", body: "pavlova"))
        let url = book.context.store.url.path + "-search"
        // A log with commits not yet checkpointed, as a process killed mid-use leaves it.
        let stale = folder.url.appendingPathComponent("stale")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        do {
            let side = try DatabaseQueue(path: url)
            try side.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                try db.execute(sql: "UPDATE folded_1 SET text = 'stale text'")
            }
            for companion in ["-wal", "-shm"] {
                try FileManager.default.copyItem(atPath: url + companion, toPath: stale.appendingPathComponent(companion).path)
            }
            try side.close()
        }
        try FileManager.default.removeItem(atPath: url)
        for companion in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url + companion)
            try FileManager.default.copyItem(atPath: stale.appendingPathComponent(companion).path, toPath: url + companion)
        }
        let reopened = try UnCloudNotesStack(storeURL: book.context.store.url).open()
        #expect(try reopened.noteIDs(matching: "pavlova") == [kept])
        #expect(try reopened.noteIDs(matching: "stale").isEmpty)
        #expect(reopened.searchIndex != nil && reopened.searchIndex?.rebuiltEntryCount == 1, "the index was made anew and answered")
    }

    /// A book opened on a store with one note (Crème, brûlée) that another program (sync,
    /// Apple's Core Data) then changed with `sql` without touching the index; `?` is the note's key.
    private static func bookAfterOutsideEdit(_ sql: String, in folder: TemporaryFolder) throws -> (NoteBook, NoteID) {
        let url: URL
        let note: NoteID
        do {
            let book = try makeBook(in: folder)
            url = book.context.store.url
            note = try book.add(NoteDraft(title: "Crème", body: "brûlée"))
        }
        let store = try DatabaseQueue(path: url.path)
        try store.write { db in try db.execute(sql: sql, arguments: [note.number]) }
        try store.close()
        return (try UnCloudNotesStack(storeURL: url).open(), note)
    }

    @Test("a pin after another program changed the note's text folds that text: the index never takes the old text for current (review)")
    func pinAfterAnOutsideEdit() throws {
        let folder = try TemporaryFolder()
        let (book, note) = try Self.bookAfterOutsideEdit("UPDATE ZNOTE SET ZTITLE = 'Clafoutis', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", in: folder)
        try book.setPinned(true, of: note)
        #expect(try book.noteIDs(matching: "clafoutis") == [note], "the pin recorded the old text as current")
        #expect(try book.noteIDs(matching: "creme").isEmpty)
    }

    @Test("a title-only save after another program changed the body folds the body too: only a current entry is refolded in part")
    func titleSaveAfterAnOutsideBodyEdit() throws {
        let folder = try TemporaryFolder()
        let (book, note) = try Self.bookAfterOutsideEdit("UPDATE ZNOTE SET ZBODY = 'caramel', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", in: folder)
        try book.update(note, with: NoteDraft(title: "Flan", body: "caramel"))
        #expect(try book.noteIDs(matching: "caramel") == [note], "the title's save took the old body for current")
        #expect(try book.noteIDs(matching: "brulee").isEmpty && book.noteIDs(matching: "flan") == [note])
    }

    @Test("a side file of format 3 (title and body in one text table) is dropped and rebuilt: no old table is left, every note is found")
    func formatThreeIsRebuilt() throws {
        let folder = try TemporaryFolder()
        let url: URL
        let note: NoteID
        do {
            let book = try Self.makeBook(in: folder)
            url = book.context.store.url
            note = try book.add(NoteDraft(title: "Crème", body: "brûlée"))
        }
        let side = try DatabaseQueue(path: url.path + "-search")
        try side.write { db in
            try db.execute(sql: """
                DROP TABLE folded_0; DROP TABLE folded_1; DELETE FROM entry;
                CREATE VIRTUAL TABLE folded USING fts5(title, body, tokenize = 'trigram case_sensitive 1', detail = none, columnsize = 0);
                UPDATE meta SET value = '3' || substr(value, 2) WHERE key = 'identity';
                """)
        }
        try side.close()
        let book = try UnCloudNotesStack(storeURL: url).open()
        #expect(try book.noteIDs(matching: "brulee") == [note] && book.noteIDs(matching: "é") == [note])
        #expect(book.searchIndex?.rebuiltEntryCount == 1)
        let tables = try DatabaseQueue(path: url.path + "-search").read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'folded%' AND sql LIKE 'CREATE VIRTUAL%'")
        }
        #expect(tables.sorted() == ["folded_0", "folded_1"])
    }

    @Test("a migration to v4 or v5 carries the index built on the older store: the first search after it answers from the index, folding nothing again",
          arguments: [(1, "v4"), (2, "v4"), (3, "v4"), (1, "v5"), (3, "v5"), (4, "v5")])
    func migrationCarriesTheIndex(fromVersion: Int, target: String) throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: fromVersion, in: folder)
        do {
            let old = try UnCloudNotesStack(storeURL: url, versionName: "v\(fromVersion)").open()
            #expect(try old.noteIDs(matching: "shopp").count == 1)
            #expect(old.searchIndex?.rebuiltEntryCount == AppStores.notes.count, "the index was built on the v\(fromVersion) store")
        }
        var migrated = false
        let book = try UnCloudNotesStack(storeURL: url, versionName: target).open { event in
            if case .finished = event { migrated = true }
        }
        #expect(migrated)
        for query in ["SHOPP", "长长长", "ÉÉÉ", "empty", "🙂🙂", "milk, e", "nothing"] {
            #expect(try book.noteIDs(matching: query) == Self.engineMatches(book, query), "search for \(query)")
        }
        #expect(try book.noteIDs(matching: "éé").count == 1)
        #expect(book.searchIndex?.rebuiltEntryCount == 0)
    }

    @Test("the backup put back in place of the migrated store (docs/migration.md) is never answered for by the index carried to v4")
    func restoredBackupIsNotTakenForTheMigratedStore() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 3, in: folder)
        // Save counts chosen so that (count, largest key, total Z_OPT) of the restored store
        // equal those of the index: only its identity tells the two stores apart.
        do {
            let old = try UnCloudNotesStack(storeURL: url, versionName: "v3").open()
            let second = try old.noteIDs()[1]
            for _ in 0..<2 { try old.update(second, with: NoteDraft(title: "Second", body: "kept")) }
            #expect(try old.noteIDs(matching: "kept") == [second])
        }
        do {
            let book = try UnCloudNotesStack(storeURL: url, versionName: "v4").open()
            let first = try book.noteIDs()[0]
            for _ in 0..<2 { try book.update(first, with: NoteDraft(title: "Jalapeño", body: "")) }
            #expect(try book.noteIDs(matching: "jalapeno") == [first])
            #expect(book.searchIndex?.rebuiltEntryCount == 0)
        }
        for companion in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + companion) }
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(atPath: url.path + ".v3-backup", toPath: url.path)
        let restored = try UnCloudNotesStack(storeURL: url, versionName: "v3").open()
        #expect(try restored.noteIDs(matching: "jalapeno").isEmpty)
        #expect(try restored.noteIDs(matching: "kept") == Self.engineMatches(restored, "kept"))
        #expect(restored.searchIndex?.rebuiltEntryCount == AppStores.notes.count)
    }

    @Test("opening a store that needs no migration builds no index: the first search does")
    func openingAlonePreparesNoIndex() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 4, in: folder)
        let book = try UnCloudNotesStack(storeURL: url, versionName: "v4").open()
        #expect(!FileManager.default.fileExists(atPath: url.path + "-search"))
        #expect(try book.noteIDs(matching: "shopping").count == 1)
        #expect(book.searchIndex?.rebuiltEntryCount == AppStores.notes.count)
    }
}
