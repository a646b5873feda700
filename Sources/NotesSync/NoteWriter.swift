import Foundation
import ManagedStore
import UnCloudNotesKit

/// Writes mirror notes into the store for one apply, through the app's own writer of whole
/// notes (`NoteBook.WholeNoteWriter`: one place where a note is written); the caller saves.
final class NoteWriter {
    private let notes: StoreNotes
    private let writer: NoteBook.WholeNoteWriter

    init(_ notes: StoreNotes) throws {
        self.notes = notes
        writer = try NoteBook.WholeNoteWriter(NoteBook(context: notes.context, version: notes.version), datesAsCopied: MirrorDates.rounded)
    }

    /// Makes `existing` (or a new note when nil) say what `note` says; `image` reads an image
    /// file's bytes. - Returns: whether anything changed (nothing when the note already says it,
    /// so an unchanged note gets no history).
    func write(_ note: MirrorNote, over existing: ManagedObject?, image: (String) throws -> Data) throws -> Bool {
        if let existing, try notes.mirrorNote(of: existing)?.note == note { return false }
        let whole = WholeNote(identifier: note.identifier, title: note.title, body: note.body, created: note.created, modified: note.modified,
                              pinned: note.pinned, tags: note.tags, images: note.images)
        try writer.write(whole, over: existing, storedFile: notes.imageNaming.path(for:), bytes: image)
        return true
    }

    /// Deletes a note and its images.
    func delete(_ note: ManagedObject) {
        writer.delete(note)
    }
}
