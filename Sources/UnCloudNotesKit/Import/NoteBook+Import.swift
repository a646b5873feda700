import Foundation
import ManagedStore

extension NoteBook {
    /// Notes read, decided and written per batch of an import: enough that a batch's statements
    /// and checks cost little per note, few enough that the memory a batch holds stays small.
    static let importBatchSize = 1_000

    /// Adds the notes `nextNote` gives, all of them or none on error (a kill included). A note
    /// with an identifier (v5) merges by it: one the store holds is left as it is when equal or
    /// older, and updated when the file's was modified later; others are added with their
    /// identifiers. Notes without one that the book already holds (the same title, body,
    /// creation date and images: `ImportMatch`) are skipped. So importing a file twice changes
    /// nothing the second time, unless `copyingNotesAlreadyHere`, which adds every note anew with
    /// new identifiers.
    ///
    /// Notes are read and written a batch at a time inside one SQLite transaction
    /// (`ManagedObjectContext.saveInOneTransaction`), so memory holds one batch, not the file,
    /// while the import stays one change of the store: one commit, one history transaction.
    /// Matching and merging look only at the notes the store held before the import, as a
    /// single save did.
    /// - Parameter nextNote: the next note of the file, checked (`NotesArchiveReader`); nil at its end.
    public func importNotes(copyingNotesAlreadyHere: Bool = false, from nextNote: () throws -> NotesArchive.Note?) throws -> ImportOutcome {
        defer { tagNames = nil }
        var run = try NoteImport(book: self, copyingNotesAlreadyHere: copyingNotesAlreadyHere)
        try context.saveInOneTransaction {
            var batch: [NotesArchive.Note] = []
            while let note = try nextNote() {
                try checkImageCount(of: note)
                batch.append(note)
                if batch.count == Self.importBatchSize {
                    try run.add(batch)
                    batch = []
                }
            }
            try run.add(batch)
        }
        refreshSearchIndex(saved: run.savedNoteKeys, partly: run.notesWithSomeTextChanged)
        return run.outcome
    }

    /// `importNotes` of an archive already in memory.
    public func importArchive(_ archive: NotesArchive, copyingNotesAlreadyHere: Bool = false) throws -> ImportOutcome {
        var notes = archive.notes.makeIterator()
        return try importNotes(copyingNotesAlreadyHere: copyingNotesAlreadyHere) { notes.next() }
    }

    private func checkImageCount(of note: NotesArchive.Note) throws(NotesArchiveError) {
        do {
            try capabilities.checkAttaching(note.images.count, toNoteWith: 0, of: nil, replacing: false)
        } catch {
            throw .tooManyImages(title: note.title, count: note.images.count, underlying: error)
        }
    }
}
