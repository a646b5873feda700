import Foundation
import ManagedStore
@testable import NotesSync
import Testing
import TestSupport
import UnCloudNotesKit

/// A first sync at the size the issue names: 10,000 notes with 1,000 images go from one store
/// to the remote and from there into an empty store, whole.
@Suite("A large first sync", .serialized)
struct LargeFirstSyncTests {
    @Test("10,000 notes with 1,000 images reach a second store: same notes, identifiers and image bytes")
    func tenThousandNotes() throws {
        let folder = try TemporaryFolder()
        let remote = try bareRemote(in: folder)
        let a = try SyncMachine("alpha", in: folder), b = try SyncMachine("beta", in: folder)
        let context = a.book.context
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for index in 0..<10_000 {
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.uuid(UUID()), forKey: "identifier")
            note.setValue(.string("Note \(index)"), forKey: "title")
            note.setValue(.string("Body of note \(index)\nsecond line\n"), forKey: "body")
            note.setValue(.date(start.addingTimeInterval(Double(index))), forKey: "dateCreated")
            note.setValue(.date(start.addingTimeInterval(Double(index))), forKey: "dateModified")
            note.setValue(.integer(Int64(index)), forKey: "displayIndex")
            if index.isMultiple(of: 10) {
                let image = try context.insertObject(entityName: "ImageAttachment")
                image.setValue(.uuid(UUID()), forKey: "identifier")
                image.setValue(.data(TestImages.encoded(width: 1 + index / 10 % 50, height: 1 + index / 500)), forKey: "image")
                image.setValue(.string("image \(index)"), forKey: "caption")
                image.setValue(.date(start), forKey: "dateCreated")
                image.setObject(note, forKey: "note")
            }
        }
        try context.save()
        a.book.forgetReadNotes()

        let sent = try a.sync(remote)
        #expect(sent.sent.added == 10_000)
        let received = try b.sync(remote)
        #expect(received.received.added == 10_000)
        let first = try a.notes(), second = try b.notes()
        #expect(second.count == 10_000)
        #expect(second.values.filter { !$0.isEmpty }.count == 1_000)
        #expect(first == second)
    }
}
