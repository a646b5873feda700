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
        return NoteBook(context: try UnCloudNotesStack(storeURL: url).open())
    }

    private static func ids(_ results: FetchedResults) -> [ObjectID] { Array(results.ids) }

    private static func scanned(_ book: NoteBook, _ text: String) throws -> [ObjectID] {
        ids(try book.notes(matching: NoteBook.searchPredicate(text)))
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
            try book.addNote(title: text(Int.random(in: 1...4, using: &generator)), body: text(Int.random(in: 0...12, using: &generator)),
                             date: Date(timeIntervalSinceReferenceDate: date))
        }
        // Notes written in date order, then among older ones (some share a date, so ties are
        // ordered too), then many into one gap until the index must number its entries again.
        for index in 0..<60 { try addNote(at: Double(index / 3)) }
        _ = try book.notes(searching: "cafe")
        for _ in 0..<40 { try addNote(at: Double(Int.random(in: -5...25, using: &generator))) }
        for step in 1...14 { try addNote(at: 1 - 1 / Double(1 << step)) }
        let all = try book.notes()
        for _ in 0..<10 {
            try book.update(all[Int.random(in: 0..<all.count, using: &generator)], title: text(2), body: text(5))
        }
        var queries = pieces + ["afe", "CAF", "ïve", "AIV", "e ", "记会", "🎉☕", "\"\"x", "ss", "fi", "i̇", "zzz", "Заме"]
        for _ in 0..<60 {
            let source = text(3)
            let start = Int.random(in: 0..<max(source.count, 1), using: &generator)
            queries.append(String(source.dropFirst(start).prefix(Int.random(in: 1...5, using: &generator))))
        }
        var indexed = 0, long = 0
        for query in queries where !query.isEmpty {
            let expected = try Self.scanned(book, query)
            #expect(Self.ids(try book.notes(searching: query)) == expected, "search for \(query.debugDescription)")
            #expect(Self.ids(try book.notes(searching: query, limit: 7, offset: 3)) == Array(expected.dropFirst(3).prefix(7)),
                    "a page of the search for \(query.debugDescription)")
            if try book.searchIndex?.primaryKeys(matching: query) != nil { indexed += 1 }
            if SearchFolding.caseAndAccentFolded(query).unicodeScalars.count >= 3 { long += 1 }
        }
        // Every query of three characters or more went through the index, none fell back to the scan.
        #expect(long > 20)
        #expect(indexed == long)
        #expect(book.searchIndex != nil, "the index never failed")
    }

    @Test func theIndexFollowsTheAppsAddsEditsAndDeletes() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        try book.addNote(title: "Groceries", body: "milk")
        #expect(try book.notes(searching: "groc").count == 1)
        let note = try book.addNote(title: "Crème brûlée", body: "sugar")
        #expect(Self.ids(try book.notes(searching: "CREME")) == [note.objectID])
        try book.update(note, title: "Tarte", body: "pommes")
        #expect(try book.notes(searching: "creme").isEmpty)
        #expect(Self.ids(try book.notes(searching: "pomme")) == [note.objectID])
        try book.delete(note)
        #expect(try book.notes(searching: "pomme").isEmpty)
        #expect(try Self.indexEntryCount(book) == 1)
    }

    @Test func changesMadeThroughAnotherConnectionAreFound() throws {
        let folder = try TemporaryFolder()
        let book = try Self.makeBook(in: folder)
        let note = try book.addNote(title: "First", body: "plain")
        #expect(try book.notes(searching: "plain").count == 1)
        // Another program (Core Data, a second process) writes the store.
        let other = try DatabaseQueue(path: book.context.store.url.path)
        try other.write { db in
            try db.execute(sql: "UPDATE ZNOTE SET ZBODY = 'Jalapeño', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", arguments: [note.objectID.primaryKey])
        }
        #expect(try book.notes(searching: "plain").isEmpty)
        #expect(Self.ids(try book.notes(searching: "jalapeno")) == [note.objectID])
        try other.write { db in try db.execute(sql: "DELETE FROM ZNOTE") }
        #expect(try book.notes(searching: "jalapeno").isEmpty)
    }

    @Test func aMissingOrForeignIndexIsRebuiltPrivate() throws {
        let folder = try TemporaryFolder()
        let url: URL
        do {
            let book = try Self.makeBook(in: folder)
            try book.addNote(title: "Kept", body: "über")
            url = book.context.store.url
            #expect(try book.notes(searching: "kept").count == 1)
            try FileManager.default.removeItem(atPath: url.path + "-search")
            try book.addNote(title: "Second", body: "")
        }
        let side = URL(fileURLWithPath: url.path + "-search")
        // Saving notes makes no index: the first search does.
        #expect(!FileManager.default.fileExists(atPath: side.path))
        let book = NoteBook(context: try UnCloudNotesStack(storeURL: url).open())
        #expect(try book.notes(searching: "UBER").count == 1)
        #expect(try book.notes(searching: "second").count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: side.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // An index made from another store (the file replaced by a migration or a restore) is rebuilt.
        try DatabaseQueue(path: side.path).write { db in
            try db.execute(sql: "UPDATE meta SET value = 'another store'; INSERT INTO entry (pk, opt) VALUES (999, 1)")
        }
        let reopened = NoteBook(context: try UnCloudNotesStack(storeURL: url).open())
        #expect(try reopened.notes(searching: "uber").count == 1)
        #expect(try Self.indexEntryCount(reopened) == 2)
    }
}
