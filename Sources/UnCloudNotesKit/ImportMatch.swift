import Foundation

/// Whether a note of an export is already in the book, so importing a file twice adds its notes
/// once: the same title (as stored, trimmed), body, creation date and image bytes, in order.
/// This is the one place the rule lives; when notes get identifiers of their own, they replace it here.
struct ImportMatch {
    let note: NotesArchive.Note

    /// The part a list row shows: title, creation date, image count. A date matches within the
    /// second (exports keep whole seconds); a note the file gives no date matches any date,
    /// since importing it gave it the time of that import.
    func mayBe(_ row: NoteRow) -> Bool {
        row.title == NoteDraft(title: note.title, body: note.body).trimmedTitle && row.imageCount == note.images.count
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
    /// For each note, whether the book already holds it (`ImportMatch`). Each note of the book
    /// answers for one note of the list at most, so a file holding a note twice adds it twice
    /// to a book that has it neither time, once to a book that has it once.
    func notesAlreadyHere(_ notes: [NotesArchive.Note]) throws -> [Bool] {
        let matches = notes.map(ImportMatch.init)
        let titles = Set(notes.map { NoteDraft(title: $0.title, body: $0.body).trimmedTitle })
        var rows: [NoteRow] = []
        try forEachScannedRow(.scan(search: nil, page: ListPage())) { row in
            if titles.contains(row.title) { rows.append(row) }
        }
        var taken = Set<NoteID>()
        return try matches.map { match in
            for row in rows where !taken.contains(row.id) && match.mayBe(row) {
                if match.isSame(as: try snapshot(of: row.id)) {
                    taken.insert(row.id)
                    return true
                }
            }
            return false
        }
    }
}
