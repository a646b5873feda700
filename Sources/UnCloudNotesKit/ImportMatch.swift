import Foundation
import ManagedStore

/// Whether a note of an export is already in the book, so importing a file twice adds its notes
/// once: the same title (as stored, trimmed), body, creation date and image bytes, in order.
/// This is the one place the rule lives, for notes without identifiers (exports of v1-v4, or a
/// book before v5); notes with one merge by it (`importArchive`).
struct ImportMatch {
    let note: NotesArchive.Note
    /// The title as the book stores it.
    let title: String

    init(_ note: NotesArchive.Note) {
        self.note = note
        title = NoteDraft(title: note.title, body: note.body).trimmedTitle
    }

    /// The part a list row shows: title, creation date, image count. A date matches within the
    /// second (exports keep whole seconds); a note the file gives no date matches any date,
    /// since importing it gave it the time of that import.
    func mayBe(_ row: NoteRow) -> Bool {
        row.title == title && row.imageCount == note.images.count
            && Self.sameSecond(note.dateCreated, row.dateCreated)
    }

    /// The whole rule, on the note as stored.
    func isSame(as stored: NoteSnapshot) -> Bool {
        let images = stored.attachments.compactMap(\.imageData)
        return mayBe(NoteRow(id: stored.id, title: stored.title, dateCreated: stored.dateCreated, imageCount: images.count))
            && stored.body == note.body && images == note.images.map(\.data)
    }

    private static func sameSecond(_ exported: Date?, _ stored: Date?) -> Bool {
        guard let exported else { return true }
        guard let stored else { return false }
        return abs(exported.timeIntervalSince(stored)) < 1
    }
}

extension NoteBook {
    /// For each note, whether the book held it before the import (display index below
    /// `firstNewIndex`; `ImportMatch`). Each note of the book answers for one note of the import
    /// at most (`matched` keeps those that did, across an import's batches), so a file holding a
    /// note twice adds it twice to a book that has it neither time, once to a book that has it
    /// once. Only the book's notes with one of the titles are read.
    func notesAlreadyHere(_ notes: [NotesArchive.Note], before firstNewIndex: Int64, matched: inout Set<NoteID>) throws -> [Bool] {
        let matches = notes.map(ImportMatch.init)
        let titles = Set(matches.map(\.title))
        guard !titles.isEmpty else { return [] }
        var candidates: [String: [NoteRow]] = [:]
        let predicate = ObjectPredicate.and([
            .comparison(.keyPath(base: nil, components: ["title"]), .in, .aggregate(titles.map { .constant(.string($0)) }), []),
            .comparison(.keyPath(base: nil, components: ["displayIndex"]), .less, .constant(.integer(firstNewIndex)), []),
        ])
        try forEachScannedRow(.meeting(predicate)) { row in
            if !matched.contains(row.id) { candidates[row.title, default: []].append(row) }
        }
        return try matches.map { match in
            guard let rows = candidates[match.title] else { return false }
            for (index, row) in rows.enumerated() where match.mayBe(row) {
                if match.isSame(as: try snapshot(of: row.id)) {
                    candidates[match.title]?.remove(at: index)
                    matched.insert(row.id)
                    return true
                }
            }
            return false
        }
    }
}
