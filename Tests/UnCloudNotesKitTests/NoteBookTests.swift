import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// The note book's value API at each model version: what it stores, and the error case each
/// refused operation throws (callers react to the case, not the text).
@Suite struct NoteBookTests {
    private static func book(_ version: String, in folder: TemporaryFolder) throws -> NoteBook {
        try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("notes.sqlite"), versionName: version).open()
    }

    private static let png = TestImages.encoded(width: 40, height: 30, format: "png")
    private static let jpeg = TestImages.encoded(width: 64, height: 48, format: "jpeg")

    @Test("v4: a note with images reads back as a snapshot, oldest image first, the latest last, sized and captioned (\"New Photo\" unless given, never the body)")
    func snapshotOfV4Note() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book("v4", in: folder)
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000)
        let id = try book.add(NoteDraft(title: "  Groceries 🛒 ", body: "milk, 牛奶 and more"),
                              images: [try NoteImage(validating: Self.png)], date: date)
        #expect(try book.attach([try NoteImage(validating: Self.jpeg)], to: id, caption: "the receipt") == 2)
        #expect(try book.attach([try NoteImage(validating: Self.png)], to: id) == 3)

        let note = try book.snapshot(of: id)
        #expect(note.id == id && note.title == "Groceries 🛒" && note.body == "milk, 牛奶 and more" && note.dateCreated == date)
        #expect(note.attachments.map(\.imageData) == [Self.png, Self.jpeg, Self.png])
        #expect(note.attachments.map(\.caption) == ["New Photo", "the receipt", "New Photo"])
        #expect(note.latestAttachment?.imageData == Self.png)
        #expect(note.attachments[1].width == 64 && note.attachments[1].height == 48)
        #expect(try book.rows(of: book.noteIDs()) == [NoteRow(id: id, title: "Groceries 🛒", dateCreated: date, imageCount: 3)])

        try book.setCaption("first", of: note.attachments[0].id)
        try book.deleteAttachment(note.attachments[1].id)
        try book.deleteAttachment(note.attachments[2].id)
        #expect(try book.snapshot(of: id).attachments.map(\.caption) == ["first"])
        #expect(try book.delete(id).imageCount == 1)
        #expect(try book.count() == 0)
    }

    @Test("v2: the one image is an attachment of its own ID; a second is refused unless it replaces the first")
    func oneImageInV2() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book("v2", in: folder)
        let id = try book.add(NoteDraft(title: "One", body: ""), images: [try NoteImage(validating: Self.png)])
        let replacement = try NoteImage(validating: Self.jpeg)
        #expect {
            try book.attach([replacement], to: id)
        } throws: { error in
            guard case NoteBookError.noteHasItsImage(id, version: "v2")? = error as? NoteBookError else { return false }
            return true
        }
        #expect(try book.snapshot(of: id).latestAttachment?.imageData == Self.png, "nothing was changed")
        try book.attach([replacement], to: id, replacing: true)
        let image = try #require(try book.snapshot(of: id).latestAttachment)
        #expect(image.imageData == Self.jpeg)
        try book.deleteAttachment(image.id)
        #expect(try book.snapshot(of: id).attachments.isEmpty)
        #expect(Self.refusal { try book.add(NoteDraft(title: "Two", body: ""), images: [replacement, replacement]) }
            == "oneImagePerNote")
        #expect(Self.refusal { try book.setCaption("x", of: image.id) } == "noCaptionsInThisVersion")
        #expect(Self.refusal { try book.deleteAttachment(image.id) } == "noSuchAttachment")
    }

    @Test("each refusal is its own case, and the store is left as it was")
    func refusals() throws {
        let folder = try TemporaryFolder()
        let v1 = try Self.book("v1", in: folder)
        let id = try v1.add(NoteDraft(title: "Old", body: "text"))
        let image = try NoteImage(validating: Self.png)
        #expect(Self.refusal { try v1.add(NoteDraft(title: " \n\t", body: "lost?")) } == "emptyTitle")
        #expect(Self.refusal { try v1.update(id, with: NoteDraft(title: "", body: "")) } == "emptyTitle")
        #expect(Self.refusal { try v1.attach([image], to: id) } == "noImagesInThisVersion")
        #expect(Self.refusal { try v1.add(NoteDraft(title: "t", body: ""), images: [image]) } == "noImagesInThisVersion")
        #expect(Self.refusal { try v1.snapshot(of: NoteID(999)) } == "noSuchNote")
        #expect(Self.refusal { try v1.delete(NoteID(999)) } == "noSuchNote")
        #expect(try v1.rows(of: v1.noteIDs()).map(\.title) == ["Old"])
        #expect(try v1.snapshot(of: id).body == "text")
    }

    @Test("a save that loses a race to another process is a conflict naming the note; nothing is written")
    func conflictKeepsItsCause() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book("v4", in: folder)
        let id = try book.add(NoteDraft(title: "Mine", body: ""))
        #expect(try book.snapshot(of: id).title == "Mine")
        try DatabaseQueue(path: book.storePath).write { db in
            try db.execute(sql: "UPDATE ZNOTE SET ZTITLE = 'Theirs', Z_OPT = Z_OPT + 1 WHERE Z_PK = ?", arguments: [id.number])
        }
        #expect {
            try book.update(id, with: NoteDraft(title: "Mine again", body: ""))
        } throws: { error in
            guard case NoteBookError.conflict(id?, underlying: .conflict(entity: "Note", primaryKey: id.number))? = error as? NoteBookError else {
                return false
            }
            return true
        }
        #expect(try book.snapshot(of: id).title == "Mine", "the rollback kept the note as read")
        book.forgetReadNotes()
        #expect(try book.snapshot(of: id).title == "Theirs")
    }

    @Test("a note whose images cannot be read is an error, not a note without images")
    func unreadableAttachmentsAreAnError() throws {
        let folder = try TemporaryFolder()
        let url: URL
        do {
            let book = try Self.book("v4", in: folder)
            try book.add(NoteDraft(title: "Trip", body: ""), images: [try NoteImage(validating: Self.png)])
            url = URL(fileURLWithPath: book.storePath)
        }
        // The attachment's row is damaged: its optimistic lock holds text.
        try DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE ZATTACHMENT SET Z_OPT = 'x'") }
        let book = try UnCloudNotesStack(storeURL: url, versionName: "v4").open()
        let id = try #require(try book.noteIDs().first)
        #expect(Self.refusal { try book.snapshot(of: id) } == "store")
    }

    @Test("a note named by the start of its identifier: unique, missing, ambiguous, or refused before v5")
    func identifierPrefixes() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book("v5", in: folder)
        let identifiers = ["AAAA1111-0000-4000-8000-000000000001", "AAAA2222-0000-4000-8000-000000000002", "B0B00000-0000-4000-8000-000000000003"]
        var ids: [NoteID] = []
        for (index, identifier) in identifiers.enumerated() {
            let id = try book.add(NoteDraft(title: "Note \(index)", body: ""))
            try #require(try book.context.existingObject(with: id.objectID)).setValue(.uuid(try #require(UUID(uuidString: identifier))), forKey: "identifier")
            ids.append(id)
        }
        try book.context.save()
        #expect(try book.noteID(try #require(NoteReference("aaaa1"))) == ids[0])
        #expect(try book.noteID(try #require(NoteReference("AAAA2222-00"))) == ids[1])
        #expect(try book.noteID(try #require(NoteReference("b0b0"))) == ids[2])
        #expect(try book.noteID(try #require(NoteReference(identifiers[2]))) == ids[2])
        #expect(Self.refusal { try book.noteID(.identifierPrefix("aaaa")) } == "ambiguousIdentifierPrefix(2)")
        #expect(Self.refusal { try book.noteID(.identifierPrefix("cccc")) } == "noNoteWithIdentifierPrefix")
        #expect(NoteReference("12") == .number(NoteID(12)))
        #expect(NoteReference("0") == nil && NoteReference("abc") == nil && NoteReference("xyz12") == nil && NoteReference("") == nil)
        #expect(NoteReference("ab-CD") == .identifierPrefix("abcd"))
        let v4Folder = try TemporaryFolder()
        let v4 = try Self.book("v4", in: v4Folder)
        #expect(Self.refusal { try v4.noteID(.identifierPrefix("abcd")) } == "notInThisVersion(identifiers)")
    }

    /// The name of the `NoteBookError` case `operation` throws, or what happened instead.
    private static func refusal(_ operation: () throws -> Any) -> String {
        do {
            _ = try operation()
            return "no error"
        } catch let error as NoteBookError {
            return caseName(error)
        } catch {
            return "another error: \(error)"
        }
    }

    private static func caseName(_ error: NoteBookError) -> String {
        switch error {
        case .emptyTitle: "emptyTitle"
        case .noImagesInThisVersion: "noImagesInThisVersion"
        case .oneImagePerNote: "oneImagePerNote"
        case .noteHasItsImage: "noteHasItsImage"
        case .noCaptionsInThisVersion: "noCaptionsInThisVersion"
        case .noSuchNote: "noSuchNote"
        case .noNoteWithIdentifierPrefix: "noNoteWithIdentifierPrefix"
        case .ambiguousIdentifierPrefix(_, let matches): "ambiguousIdentifierPrefix(\(matches))"
        case .notInThisVersion(let feature, _): "notInThisVersion(\(feature.rawValue))"
        case .badTagName: "badTagName"
        case .noSuchTag: "noSuchTag"
        case .alreadyRestored: "alreadyRestored"
        case .noSuchAttachment: "noSuchAttachment"
        case .unsavedNote: "unsavedNote"
        case .displayIndexExhausted: "displayIndexExhausted"
        case .conflict: "conflict"
        case .image: "image"
        case .store: "store"
        }
    }
}
