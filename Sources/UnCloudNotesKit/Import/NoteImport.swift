import Foundation
import ManagedStore

/// One import's state across its batches: where the next note goes, the tags by name, which of
/// the store's notes already matched a note of the file, the counts, and the notes the search
/// index must fold once the import commits.
///
/// The store's notes from before the import are those below the display index its first note
/// takes (new notes take the next ones): merging and matching look only at those, so a batch
/// never merges into or matches a note an earlier batch added, as the single save of before
/// never did.
struct NoteImport {
    private let book: NoteBook
    private let copyingNotesAlreadyHere: Bool
    private let mergesByIdentifier: Bool
    private let firstNewIndex: Int64
    private var nextIndex: Int64
    /// Every tag, read once per batch: looking each up among the pending inserts grew with the
    /// import.
    private var tags: [String: ManagedObject] = [:]
    /// The store's notes a note of the file already matched: each answers for one note at most.
    private var matched: Set<NoteID> = []
    private var added = 0, updated = 0, skipped = 0
    /// Notes whose search entries are folded after the commit.
    private(set) var savedNoteKeys: [Int64] = []
    /// Notes whose entries fold again only the attributes named (an import that changed a title
    /// alone; none for a pin or tags).
    private(set) var notesWithSomeTextChanged: [Int64: Set<String>] = [:]

    init(book: NoteBook, copyingNotesAlreadyHere: Bool) throws {
        self.book = book
        self.copyingNotesAlreadyHere = copyingNotesAlreadyHere
        mergesByIdentifier = book.capabilities.hasIdentifiers && !copyingNotesAlreadyHere
        firstNewIndex = try book.nextDisplayIndex()
        nextIndex = firstNewIndex
    }

    var outcome: ImportOutcome { ImportOutcome(imported: added, updated: updated, skipped: skipped) }

    /// Decides and writes one batch of notes: merged, skipped as already here, or added.
    mutating func add(_ batch: [NotesArchive.Note]) throws(NoteBookError) {
        guard !batch.isEmpty else { return }
        do {
            tags = try book.tagsByName()
            let stored = mergesByIdentifier ? try book.notes(before: firstNewIndex, withIdentifiers: Set(batch.compactMap(\.identifier))) : [:]
            let merged = batch.map { note in note.identifier.flatMap { stored[$0] } }
            let unidentified = batch.enumerated().filter { merged[$0.offset] == nil && !(mergesByIdentifier && $0.element.identifier != nil) }
            let alreadyHere = copyingNotesAlreadyHere ? unidentified.map { _ in false }
                : try book.notesAlreadyHere(unidentified.map(\.element), before: firstNewIndex, matched: &matched)
            let skippedByMatch = Set(zip(unidentified, alreadyHere).filter(\.1).map(\.0.offset))
            skipped += skippedByMatch.count
            for (offset, note) in batch.enumerated() where !skippedByMatch.contains(offset) {
                if let stored = merged[offset] {
                    if try book.updateIfNewer(stored, to: note) { updated += 1 } else { skipped += 1 }
                    continue
                }
                try book.insert(note, displayIndex: nextIndex, keepingIdentifiers: !copyingNotesAlreadyHere, tags: &tags)
                nextIndex = try book.displayIndex(after: nextIndex)
                added += 1
            }
            let pending = PendingNoteChange(in: book.context)
            try book.context.save()
            savedNoteKeys += pending.savedKeys
            notesWithSomeTextChanged.merge(pending.keysWithSomeTextChanged) { $0.union($1) }
            // The batch is written: its objects, and the tags with every note they hold, leave
            // memory (held from batch to batch, a tag on every note grew with the file).
            tags = [:]
            book.forgetReadNotes()
        } catch {
            throw .wrapping(error)
        }
    }
}
