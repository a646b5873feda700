import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
@testable import UnCloudNotesKit

/// v5's note book: modified dates, pins, tags, the list's orders and filters, and undoing a delete.
@Suite struct NoteBookV5Tests {
    private static func book(_ version: String = "v5", in folder: TemporaryFolder) throws -> NoteBook {
        try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("notes.sqlite"), versionName: version).open()
    }

    private static let png = TestImages.encoded(width: 40, height: 30, format: "png")

    private static func day(_ number: Double) -> Date { Date(timeIntervalSinceReferenceDate: 800_000_000 + number * 86_400) }

    /// Three notes a day apart: "Old" (day 0), "Middle" (day 1), "New" (day 2).
    private static func threeNotes(in book: NoteBook) throws -> (old: NoteID, middle: NoteID, new: NoteID) {
        (try book.add(NoteDraft(title: "Old", body: "first"), date: day(0)),
         try book.add(NoteDraft(title: "Middle", body: "second"), date: day(1)),
         try book.add(NoteDraft(title: "New", body: "third"), date: day(2)))
    }

    @Test("every save of a note's content sets its modified date: an edit, a tag, an image, a caption")
    func modifiedOnEverySave() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let id = try book.add(NoteDraft(title: "Note", body: ""), date: Self.day(0))
        var last = try #require(try book.snapshot(of: id).dateModified)
        #expect(last == Self.day(0))
        let changes: [() throws -> Void] = [
            { try book.update(id, with: NoteDraft(title: "Note", body: "edited")) },
            { try book.changeTags(of: id, adding: ["work"]) },
            { try book.attach([try NoteImage(validating: Self.png)], to: id) },
            { try book.setCaption("a caption", of: try #require(try book.snapshot(of: id).attachments.first).id) },
        ]
        for (index, change) in changes.enumerated() {
            try change()
            let modified = try #require(try book.snapshot(of: id).dateModified)
            #expect(modified > last, "change \(index)")
            last = modified
        }
    }

    @Test("pinned notes list first, in both orders; the modified order follows the last change")
    func pinsAndOrders() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let (old, middle, new) = try Self.threeNotes(in: book)
        #expect(try book.noteIDs() == [new, middle, old])
        try book.setPinned(true, of: old)
        #expect(try book.noteIDs() == [old, new, middle])
        #expect(try book.rows(of: [old]).first?.pinned == true)
        #expect(try book.noteIDs(NoteQuery(pinnedOnly: true)) == [old])
        try book.update(middle, with: NoteDraft(title: "Middle", body: "changed last"))
        #expect(try book.noteIDs(NoteQuery(sort: .modified)) == [old, middle, new])
        let modified = try book.snapshot(of: old).dateModified
        try book.setPinned(false, of: old)
        #expect(try book.snapshot(of: old).dateModified == modified, "a pin is not an edit")
        #expect(try book.noteIDs(NoteQuery(sort: .modified)) == [middle, new, old], "unpinned, old is again the oldest change")
        #expect(try book.noteIDs(NoteQuery(sort: .created)) == [new, middle, old])
        #expect(try book.noteIDs(NoteQuery(sort: .created), page: ListPage(limit: 1, offset: 1)) == [middle])
    }

    @Test("since and until filter by the sort's date")
    func dateFilters() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let (old, middle, new) = try Self.threeNotes(in: book)
        #expect(try book.noteIDs(NoteQuery(since: Self.day(1))) == [new, middle])
        #expect(try book.noteIDs(NoteQuery(until: Self.day(1))) == [old])
        #expect(try book.noteIDs(NoteQuery(since: Self.day(0.5), until: Self.day(1.5))) == [middle])
        try book.update(old, with: NoteDraft(title: "Old", body: "touched now"))
        #expect(try book.noteIDs(NoteQuery(since: Self.day(3), sort: .modified)) == [old])
    }

    @Test("tags: set with a note, added and removed, counted, renamed and merged; emptied tags go; names are checked")
    func tags() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let (old, middle, new) = try Self.threeNotes(in: book)
        try book.update(old, with: NoteDraft(title: "Old", body: "first", tags: ["work", " home "]))
        try book.changeTags(of: middle, adding: ["work"])
        try book.changeTags(of: new, adding: ["Work"])
        #expect(try book.snapshot(of: old).tags == ["home", "work"])
        #expect(try book.tags() == [TagCount(name: "Work", count: 1), TagCount(name: "home", count: 1), TagCount(name: "work", count: 2)])
        #expect(try book.noteIDs(NoteQuery(tag: "work")) == [middle, old])
        #expect(try book.rows(of: [old]).first?.tags == ["home", "work"])
        #expect(try book.noteIDs(NoteQuery(tag: "nowhere")).isEmpty)

        #expect(try book.renameTag("Work", to: "work") == .merged(notes: 1))
        #expect(try book.tags() == [TagCount(name: "home", count: 1), TagCount(name: "work", count: 3)])
        #expect(try book.renameTag("home", to: "house") == .renamed(notes: 1))
        #expect(try book.renameTag("house", to: " house") == .unchanged(notes: 1))
        #expect(try book.snapshot(of: old).tags == ["house", "work"])
        try book.changeTags(of: old, removing: ["house"])
        #expect(try book.tags().map(\.name) == ["work"], "a tag no note has is deleted")
        try book.update(new, with: NoteDraft(title: "New", body: "third", tags: []))
        #expect(try book.tags() == [TagCount(name: "work", count: 2)])

        for bad in ["", "  ", "a,b", "tab\there"] {
            #expect(throws: NoteBookError.self) { try book.changeTags(of: old, adding: [bad]) }
        }
        #expect(throws: NoteBookError.self) { try book.renameTag("missing", to: "x") }
        #expect(try book.tags() == [TagCount(name: "work", count: 2)], "refusals changed nothing")
    }

    @Test("one tag, however typed: NFC or NFD accents and a leading # are one name, in changes, filters, renames and search")
    func tagSpellings() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let (old, middle, new) = try Self.threeNotes(in: book)
        try book.changeTags(of: old, adding: ["caf\u{E9}"])
        try book.changeTags(of: middle, adding: ["cafe\u{301}"])
        try book.changeTags(of: new, adding: ["#work"])
        #expect(try book.tags() == [TagCount(name: "caf\u{E9}", count: 2), TagCount(name: "work", count: 1)])
        #expect(try book.noteIDs(NoteQuery(tag: "cafe\u{301}")) == [middle, old])
        #expect(try book.noteIDs(NoteQuery(tag: "#work")) == [new])
        #expect(try book.noteIDs(NoteQuery(search: "#work")) == [new])
        #expect(try book.noteIDs(NoteQuery(search: "#caf\u{E9}")) == [middle, old])
        #expect(try book.noteIDs(NoteQuery(search: "#nothing")).isEmpty)
        #expect(try book.renameTag("cafe\u{301}", to: "caf\u{E9}") == .unchanged(notes: 2))
        #expect(throws: NoteBookError.self) { try book.changeTags(of: old, adding: ["#"]) }
    }

    @Test("a store written before names were normalised has its duplicate spellings merged when opened, once, dates kept")
    func existingSpellingsMerged() throws {
        let folder = try TemporaryFolder()
        let (old, middle, new): (NoteID, NoteID, NoteID)
        let dates: [Date?]
        do {
            let book = try Self.book(in: folder)
            (old, middle, new) = try Self.threeNotes(in: book)
            try book.changeTags(of: old, adding: ["caf\u{E9}"])
            // Rows as an older version wrote them: a decomposed twin on two notes, a '#' name.
            for (ids, name) in [([middle, old], "cafe\u{301}"), ([new], "#hash")] {
                let tag = try book.context.insertObject(entityName: "Tag")
                tag.setValue(.string(name), forKey: "name")
                for id in ids { try book.context.existingObject(with: id.objectID)?.addObject(tag, forKey: "tags") }
            }
            try book.context.save()
            #expect(try book.tags().map(\.count) == [1, 2, 1])
            dates = try [old, middle, new].map { try book.snapshot(of: $0).dateModified }
        }
        let book = try Self.book(in: folder)
        #expect(try book.tags() == [TagCount(name: "caf\u{E9}", count: 2), TagCount(name: "hash", count: 1)])
        #expect(try book.snapshot(of: old).tags == ["caf\u{E9}"])
        #expect(try [old, middle, new].map { try book.snapshot(of: $0).dateModified } == dates)
        #expect(try book.mergeTagSpellings() == 0, "once merged, nothing is left to merge")
    }

    @Test("search matches tag names too, in the list's order, pinned first, through the index or a scan alike", arguments: [true, false])
    func searchMatchesTags(usingIndex: Bool) throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let (old, middle, new) = try Self.threeNotes(in: book)
        try book.changeTags(of: old, adding: ["Gardening"])
        try book.update(middle, with: NoteDraft(title: "Middle", body: "the garden gate"))
        #expect(try book.noteIDs(matching: "GARDEN", usingIndex: usingIndex) == [middle, old])
        try book.setPinned(true, of: old)
        #expect(try book.noteIDs(matching: "garden", usingIndex: usingIndex) == [old, middle])
        #expect(try book.noteIDs(matching: "third", usingIndex: usingIndex) == [new])
        try book.setPinned(true, of: new)
        #expect(try book.noteIDs(matching: "ird", usingIndex: usingIndex) == [new])
        #expect(try book.noteIDs(NoteQuery(search: "garden", tag: "Gardening"), usingIndex: usingIndex) == [old])
        var rows: [String] = []
        try book.forEachRow(NoteQuery(search: "garden")) { rows.append($0.title) }
        #expect(rows == ["Old", "Middle"])
    }

    @Test("undo of a delete restores the note with its identifier, dates, pin, tags and images (captions, sizes, identifiers)")
    func undoDelete() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let id = try book.add(NoteDraft(title: "Trip", body: "tent", tags: ["travel", "summer"]), images: [try NoteImage(validating: Self.png)],
                              date: Self.day(0))
        try book.setCaption("the lake", of: try #require(try book.snapshot(of: id).attachments.first).id)
        try book.setPinned(true, of: id)
        let before = try book.snapshot(of: id)
        let deleted = try book.delete(id)
        #expect(deleted.imageCount == 1)
        #expect(try book.count() == 0 && book.tags().isEmpty)
        let restored = try book.restore(deleted)
        #expect(restored == id, "the number survives the undo (issue #38, bug 3)")
        var after = try book.snapshot(of: restored)
        #expect(after.identifier == before.identifier && after.identifier != nil)
        #expect(after.attachments.map(\.identifier) == before.attachments.map(\.identifier))
        #expect(after.attachments.map(\.imageData) == [Self.png] && after.attachments.first?.caption == "the lake")
        #expect(after.attachments.first?.width == 40 && after.attachments.first?.height == 30)
        // Only its images' object IDs are new.
        after = NoteSnapshot(id: before.id, title: after.title, body: after.body, dateCreated: after.dateCreated,
                             attachments: zip(after.attachments, before.attachments).map { new, old in
                                 var copy = old
                                 copy.imageData = new.imageData
                                 copy.caption = new.caption
                                 return copy
                             }, identifier: after.identifier, dateModified: after.dateModified, pinned: after.pinned, tags: after.tags,
                             displayIndex: after.displayIndex)
        #expect(after == before)
        #expect(try book.tags() == [TagCount(name: "summer", count: 1), TagCount(name: "travel", count: 1)])
        #expect(throws: NoteBookError.self) { try book.restore(deleted) }
        #expect(try book.count() == 1)
    }

    @Test("before v5 tags, pins and the modified order are refused by name; rows and snapshots have none")
    func refusedBeforeV5() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book("v4", in: folder)
        let id = try book.add(NoteDraft(title: "Four", body: ""))
        for operation in [{ _ = try book.setPinned(true, of: id) }, { try book.changeTags(of: id, adding: ["x"]) },
                          { _ = try book.noteIDs(NoteQuery(sort: .modified)) }, { _ = try book.tags() }] {
            let error = try #require(throws: NoteBookError.self) { try operation() }
            guard case .notInThisVersion(_, "v4") = error else { Issue.record("\(error)"); continue }
            #expect(error.description.contains("(run as v5)"))
        }
        #expect(try book.rows(of: [id]) == [NoteRow(id: id, title: "Four", dateCreated: try book.snapshot(of: id).dateCreated, imageCount: 0)])
        let restored = try book.restore(try book.delete(id))
        #expect(try book.snapshot(of: restored).title == "Four")
        #expect(restored == id)
    }

    @Test("an undone delete keeps its number beside notes added meanwhile, in another process too; a number is never given twice")
    func undoKeepsNumber() throws {
        let folder = try TemporaryFolder()
        let book = try Self.book(in: folder)
        let (old, middle, new) = try Self.threeNotes(in: book)
        let deleted = try book.delete(middle)
        let later = try Self.book(in: folder).add(NoteDraft(title: "Added meanwhile", body: "by another process"))
        #expect(later.number > middle.number)
        #expect(try book.restore(deleted) == middle)
        #expect(try book.snapshot(of: middle).title == "Middle")
        // A second copy of the same deleted note cannot take the number: its identifier is back.
        #expect(throws: NoteBookError.self) { try book.restore(deleted) }
        let next = try book.add(NoteDraft(title: "Next", body: ""))
        #expect(next.number > later.number, "Z_MAX is untouched by the reuse")
        #expect(Set(try book.noteIDs()) == [old, middle, new, later, next])
    }

    @Test("an export carries identifiers, tags, pins and both dates; importing it twice changes nothing; a newer copy updates; --as-new copies")
    func importMergesByIdentifier() throws {
        let source = try Self.book(in: try TemporaryFolder())
        let id = try source.add(NoteDraft(title: "Plan", body: "one", tags: ["work"]), images: [try NoteImage(validating: Self.png)])
        try source.setPinned(true, of: id)
        let archive = try NotesArchive(jsonData: NotesArchive(book: source).jsonData())
        let note = try #require(archive.notes.first)
        #expect(note.identifier == (try source.snapshot(of: id).identifier) && note.tags == ["work"] && note.pinned == true && note.dateModified != nil)
        #expect(note.images.first?.identifier != nil)

        let target = try Self.book(in: try TemporaryFolder())
        #expect(try target.importArchive(archive) == ImportOutcome(imported: 1, skipped: 0))
        #expect(try target.importArchive(archive) == ImportOutcome(imported: 0, skipped: 1))
        let copied = try #require(try target.noteIDs().first)
        #expect(try target.snapshot(of: copied).identifier == note.identifier && target.snapshot(of: copied).tags == ["work"])
        #expect(try target.snapshot(of: copied).pinned)
        let (sourceNote, copiedNote) = (try source.snapshot(of: id), try target.snapshot(of: copied))
        #expect(copiedNote.dateCreated == sourceNote.dateCreated && copiedNote.dateModified == sourceNote.dateModified,
                "dates come back as the store holds them, fraction and all (issue #38, bug 6)")
        #expect(copiedNote.attachments.map(\.dateCreated) == sourceNote.attachments.map(\.dateCreated))

        var newer = archive
        newer.notes[0].body = "two"
        newer.notes[0].tags = ["work", "later"]
        newer.notes[0].dateModified = (note.dateModified ?? Date()).addingTimeInterval(60)
        #expect(try target.importArchive(newer) == ImportOutcome(imported: 0, updated: 1, skipped: 0))
        #expect(try target.snapshot(of: copied).body == "two" && target.snapshot(of: copied).tags == ["later", "work"])
        #expect(try target.snapshot(of: copied).attachments.count == 1, "the image it had is not added again")
        #expect(try target.importArchive(archive) == ImportOutcome(imported: 0, skipped: 1), "an older copy changes nothing")

        #expect(try target.importArchive(archive, copyingNotesAlreadyHere: true) == ImportOutcome(imported: 1, skipped: 0))
        let identifiers = try target.noteIDs().map { try target.snapshot(of: $0).identifier }
        #expect(Set(identifiers).count == 2)
    }
}

extension NotesArchive {
    /// Reads an export's JSON as `notes import` does.
    init(jsonData: Data) throws {
        self = try NotesArchive.read(jsonData, source: "test")
    }
}

@Suite("Tag names")
struct TagNameTests {
    @Test("the stored form of a stored form is itself", arguments: ["# #a", " #  # b ", "##c", "#", "cafe\u{301}", " d#e ", "# \u{301}x"])
    func idempotent(name: String) throws {
        guard let once = try? TagName.checked(name) else { return }
        #expect(try TagName.checked(once).unicodeScalars.elementsEqual(once.unicodeScalars), "\(once)")
    }
}
