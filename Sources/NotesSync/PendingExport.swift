import Foundation
import ManagedStore

/// What an export writes to the mirror: every note on a store's first export, else the notes
/// the history names since the last one; and the note files its deletions remove. Files are
/// made one note at a time as git reads them, so memory does not grow with the store.
struct PendingExport {
    /// Every note (the first export), rather than those `changes` names.
    let everything: Bool
    let changes: LocalChanges
    /// The files of deleted notes whose identifiers the store no longer has (an undone delete
    /// brings a note back under its identifier).
    let removed: [String]

    /// The history after `token` (all of it, and every note, when nil); `readSoFar`, the history
    /// already read after that same token, is read on from rather than again.
    init(_ notes: StoreNotes, since token: Int64?, readSoFar: LocalChanges? = nil) throws {
        everything = token == nil
        if let readSoFar {
            var changes = readSoFar
            changes.add(try LocalChanges(after: readSoFar.lastToken, in: notes.context))
            self.changes = changes
        } else {
            changes = try LocalChanges(after: token, in: notes.context)
        }
        removed = everything ? [] : try changes.deletedNotes.sorted { $0.uuidString < $1.uuidString }
            .filter { try notes.note(identifier: $0) == nil }.map(MirrorNote.path(of:))
        notes.context.reset()
    }

    /// The newest history transaction read: the next export reads after it.
    var lastToken: Int64? { changes.lastToken }

    /// Whether there is nothing to export.
    var isEmpty: Bool { !everything && changes.changedNotes.isEmpty && removed.isEmpty }

    /// Calls `body` with each file to write: a note's file, then its images' files.
    func forEachFile(of notes: StoreNotes, _ body: (_ path: String, _ bytes: Data) throws -> Void) throws {
        try forEachNote(of: notes) { note in
            guard let (mirrorNote, images) = try notes.mirrorNote(of: note) else { return }
            try body(mirrorNote.path, Data(MirrorNoteFile.render(mirrorNote).utf8))
            for (path, bytes) in images.sorted(by: { $0.key < $1.key }) { try body(path, bytes) }
        }
    }

    /// The note files the export writes, without making them (for a dry run).
    func notePaths(of notes: StoreNotes) throws -> [String] {
        var paths: [String] = []
        try forEachNote(of: notes) { note in
            if let identifier = note.value(forKey: "identifier")?.uuidValue { paths.append(MirrorNote.path(of: identifier)) }
        }
        return paths
    }

    private func forEachNote(of notes: StoreNotes, _ body: (ManagedObject) throws -> Void) throws {
        defer { notes.context.reset() }
        if everything {
            try notes.forEachNote(body)
            return
        }
        for key in changes.changedNotes.sorted() {
            if let note = try notes.context.existingObject(with: ObjectID(entityName: StoreNotes.noteEntity, primaryKey: key)) { try body(note) }
        }
    }
}
