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
        #expect(history[1].changes.first?.updatedProperties == ["body"])
    }
}
