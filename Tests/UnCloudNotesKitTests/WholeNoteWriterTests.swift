import Foundation
import ManagedStore
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// `NoteBook.WholeNoteWriter`, the one place a note from another copy of the store (sync's
/// apply) is written: the app's rules for display indexes and tags, images kept by identifier,
/// and nothing written when the note already says it.
@Suite struct WholeNoteWriterTests {
    private static let png = TestImages.encoded(width: 40, height: 30, format: "png")

    private static func note(tags: [String], images: [WholeNote.Image] = []) -> WholeNote {
        WholeNote(identifier: UUID(uuidString: "8D1F61E2-8E0B-4C51-9C1B-0E6C2F6B8C11")!, title: "From elsewhere", body: "body\n",
                  created: Date(timeIntervalSinceReferenceDate: 800_000_000.123), modified: Date(timeIntervalSinceReferenceDate: 800_000_100.5),
                  pinned: true, tags: tags, images: images)
    }

    private static func image(caption: String) -> WholeNote.Image {
        WholeNote.Image(identifier: UUID(uuidString: "0B3A8F0E-2B1C-4E55-8C1A-5D7E9F0A1B22")!, file: "picture", created: nil, caption: caption,
                        width: 40, height: 30)
    }

    @Test("a received note follows the app's notes, shares the app's tag in either Unicode form, and keeps its identifiers and dates")
    func newNote() throws {
        let folder = try TemporaryFolder()
        let book = try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("notes.sqlite")).open()
        let own = try book.add(NoteDraft(title: "Mine", body: "", tags: ["café"]))
        let writer = try NoteBook.WholeNoteWriter(book, datesAsCopied: { $0 })
        var reads: [String] = []
        try writer.write(Self.note(tags: ["cafe\u{301}"], images: [Self.image(caption: "seen")]), over: nil, storedFile: { _ in "picture" }) {
            reads.append($0)
            return Self.png
        }
        try book.context.save()
        #expect(reads == ["picture"])
        let rows = try book.rows(of: try book.noteIDs())
        #expect(Set(rows.map(\.title)) == ["From elsewhere", "Mine"])
        let received = try #require(rows.first { $0.title == "From elsewhere" })
        let snapshot = try book.snapshot(of: received.id)
        #expect(received.id.number != own.number)
        #expect(snapshot.identifier == Self.note(tags: []).identifier && snapshot.pinned)
        #expect(snapshot.dateCreated == Self.note(tags: []).created && snapshot.dateModified == Self.note(tags: []).modified)
        #expect(snapshot.tags == ["café"])
        #expect(try book.tags().map(\.name) == ["café"], "one tag, not two spellings")
        let attachment = try #require(snapshot.attachments.first)
        #expect(attachment.imageData == Self.png && attachment.caption == "seen" && attachment.width == 40 && attachment.height == 30)
        // The display index follows the app's rule: after the largest, as a note added in the app.
        var second = Self.note(tags: [])
        second.identifier = UUID()
        second.title = "Also from elsewhere"
        try writer.write(second, over: nil, storedFile: { _ in "picture" }) { _ in Self.png }
        try book.context.save()
        let indexes = Dictionary(uniqueKeysWithValues: try book.context.fetch(FetchRequest(entityName: NoteBook.noteEntity)).map {
            ($0.value(forKey: "title")?.stringValue ?? "", $0.value(forKey: "displayIndex")?.integerValue ?? -1)
        })
        let mine = try #require(indexes["Mine"])
        #expect(indexes["From elsewhere"] == (try book.displayIndex(after: mine)))
        #expect(indexes["Also from elsewhere"] == (try book.displayIndex(after: try #require(indexes["From elsewhere"]))))
    }

    @Test("writing what the note already says changes nothing; a tag it drops goes when no note keeps it; the image is read only when it changed")
    func overAStoredNote() throws {
        let folder = try TemporaryFolder()
        let book = try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("notes.sqlite")).open()
        let writer = try NoteBook.WholeNoteWriter(book, datesAsCopied: { $0 })
        let first = Self.note(tags: ["trip", "soon"], images: [Self.image(caption: "one")])
        try writer.write(first, over: nil, storedFile: { _ in "picture" }) { _ in Self.png }
        try book.context.save()
        let stored = try #require(try book.context.fetch(FetchRequest(entityName: "Note")).first)
        try writer.write(first, over: stored, storedFile: { _ in "picture" }) { _ in
            Issue.record("an unchanged image must not be read")
            return Self.png
        }
        #expect(!book.context.hasChanges)
        var second = first
        second.tags = ["trip"]
        second.images[0].caption = "two"
        try writer.write(second, over: stored, storedFile: { _ in "picture" }) { _ in Self.png }
        try book.context.save()
        #expect(try book.tags().map(\.name) == ["trip"])
        let snapshot = try book.snapshot(of: try #require(try book.noteIDs().first))
        #expect(snapshot.attachments.map(\.caption) == ["two"])
    }
}
