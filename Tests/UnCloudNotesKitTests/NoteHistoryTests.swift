import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// The app records its saves in the store's persistent history, from the first save after an
/// upgrade on; the upgrade itself records nothing.
@Suite("The app's persistent history")
struct NoteHistoryTests {
    @Test("a v1 store upgraded by the app gets history from then on: the migration records nothing, each save one transaction")
    func upgradedStoreRecords() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v1", into: folder)
        let book = try UnCloudNotesStack(storeURL: url).open()
        #expect(try book.context.store.history().isEmpty)
        let id = try book.add(NoteDraft(title: "After the upgrade", body: "recorded"))
        try book.update(id, with: NoteDraft(title: "After the upgrade", body: "changed"))
        _ = try book.delete(id)
        let history = try book.context.store.history()
        #expect(history.map(\.author) == Array(repeating: UnCloudNotesStack.transactionAuthor, count: 3))
        #expect(history.allSatisfy { $0.contextName == UnCloudNotesStack.contextName })
        #expect(history.map { $0.changes.filter { $0.entityName == "Note" }.map(\.kind) } == [[.insert], [.update], [.delete]])
        // v5 records when the note changed in the same save.
        #expect(history[1].changes.first?.updatedProperties == ["body", "dateModified"])
    }
}

extension NoteHistoryTests {
    /// The history as read now: per transaction, each change's kind, entity, key and properties.
    private func readable(_ store: PersistentStore) throws -> [[String]] {
        try store.history().map { $0.changes.map { "\($0.kind) \($0.entityName) \($0.primaryKey) \($0.updatedProperties)" } }
    }

    @Test("history recorded at v2 and v3 reads the same after the store migrates to v4 and v5 (entity numbers and property bits follow the model)",
          arguments: ["v2", "v3"])
    func historySurvivesMigrations(fixture: String) throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore(fixture, into: folder)
        let old = try UnCloudNotesStack(storeURL: url, versionName: fixture).open()
        let id = try old.add(NoteDraft(title: "Before", body: "recorded at \(fixture)"))
        try old.update(id, with: NoteDraft(title: "Renamed", body: "recorded at \(fixture)"))
        let before = try readable(old.context.store)
        try old.context.store.close()
        #expect(before.flatMap { $0 }.contains { $0.hasPrefix("update Note") && $0.hasSuffix("[\"title\"]") })
        for version in ["v4", "v5"] {
            let book = try UnCloudNotesStack(storeURL: url, versionName: version).open()
            #expect(try readable(book.context.store) == before, "\(version)")
            try book.context.store.close()
        }
    }
}
