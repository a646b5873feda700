import Foundation
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// Which notes of an export `importArchive` takes as already in the book.
@Suite struct ImportMatchTests {
    private static let png = TestImages.encoded(width: 8, height: 8, format: "png")
    private static let otherPNG = TestImages.encoded(width: 9, height: 8, format: "png")
    private static let date = Date(timeIntervalSinceReferenceDate: 800_000_000)

    private static func note(_ title: String, body: String = "b", date: Date? = Self.date, images: [Data] = []) -> NotesArchive.Note {
        NotesArchive.Note(title: title, body: body, dateCreated: date,
                          images: images.map { NotesArchive.Image(data: $0, format: "png", caption: nil, width: 8, height: 8, dateCreated: nil) })
    }

    private static func archive(_ notes: [NotesArchive.Note]) -> NotesArchive {
        NotesArchive(modelVersion: "UnCloudNotesDataModel v4", notes: notes)
    }

    @Test("the same title (trimmed), body, date within the second and image bytes match; any difference does not")
    func whatMatches() throws {
        let folder = try TemporaryFolder()
        let book = try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("n.sqlite")).open()
        _ = try book.add(NoteDraft(title: "Kept", body: "b"), images: [try NoteImage(validating: Self.png)], date: Self.date.addingTimeInterval(0.4))
        let outcome = try book.importArchive(Self.archive([
            Self.note("  Kept ", images: [Self.png]),
            Self.note("Kept", body: "c", images: [Self.png]),
            Self.note("Kept", images: [Self.otherPNG]),
            Self.note("Kept", images: []),
            Self.note("Kept", date: Self.date.addingTimeInterval(2), images: [Self.png]),
        ]))
        #expect(outcome == ImportOutcome(imported: 4, skipped: 1))
        #expect(try book.count() == 5)
    }

    @Test("each note of the book answers for one note of the file; a note the file gives no date matches on the rest")
    func oneForOne() throws {
        let folder = try TemporaryFolder()
        let book = try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("n.sqlite")).open()
        _ = try book.add(NoteDraft(title: "Twice", body: "b"), date: Self.date)
        #expect(try book.importArchive(Self.archive([Self.note("Twice"), Self.note("Twice")])) == ImportOutcome(imported: 1, skipped: 1))
        #expect(try book.importArchive(Self.archive([Self.note("Twice"), Self.note("Twice")])) == ImportOutcome(imported: 0, skipped: 2))
        let undated = Self.archive([Self.note("Undated", date: nil)])
        #expect(try book.importArchive(undated) == ImportOutcome(imported: 1, skipped: 0))
        #expect(try book.importArchive(undated) == ImportOutcome(imported: 0, skipped: 1))
        #expect(try book.importArchive(undated, copyingNotesAlreadyHere: true) == ImportOutcome(imported: 1, skipped: 0))
        #expect(try book.count() == 4)
    }
}
