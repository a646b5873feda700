import Foundation
import ManagedStore

/// A deleted note as it was, to undo the delete: its text, dates, pin, tags, identifier and
/// every image with its caption, size and identifier.
public struct DeletedNote: Equatable, Sendable {
    public let note: NoteSnapshot

    /// How many images went with the note.
    public var imageCount: Int { note.attachments.count }
}

extension NoteBook {
    /// Deletes a note; its attachments go with it, and tags no other note has.
    /// - Returns: the note as it was, which `restore` brings back.
    @discardableResult
    public func delete(_ id: NoteID) throws(NoteBookError) -> DeletedNote {
        let note = try object(for: id)
        let deleted = DeletedNote(note: try snapshot(of: note))
        try changing {
            if case .several = capabilities.images { note.objects(forKey: "attachments").forEach(context.delete) }
            if capabilities.hasTags {
                for tag in note.objects(forKey: "tags") {
                    note.removeObject(tag, forKey: "tags")
                    deleteIfUnused(tag)
                }
            }
            context.delete(note)
        }
        readNotes[id] = nil
        return deleted
    }

    /// Brings a deleted note back as it was, under its number when no note has taken it (one
    /// can only be taken by another undo): the undo of `delete`. Refused when a note with its
    /// identifier is in the store again.
    /// - Returns: the restored note's ID.
    @discardableResult
    public func restore(_ deleted: DeletedNote) throws(NoteBookError) -> NoteID {
        let snapshot = deleted.note
        if let identifier = snapshot.identifier, try note(withIdentifier: identifier) != nil {
            throw .alreadyRestored(title: snapshot.title)
        }
        let note = try changing {
            let note = try insertNote(NoteDraft(title: snapshot.title, body: snapshot.body), date: snapshot.dateCreated ?? NoteClock.now(),
                                      displayIndex: snapshot.displayIndex, identifier: snapshot.identifier, reusingNumber: snapshot.id)
            if snapshot.dateCreated == nil { note.setValue(nil, forKey: "dateCreated") }
            if capabilities.recordsModification { note.setValue(snapshot.dateModified.map(AttributeValue.date), forKey: "dateModified") }
            if capabilities.hasPins { note.setValue(.bool(snapshot.pinned), forKey: "pinned") }
            if capabilities.hasTags {
                for name in snapshot.tags { note.addObject(try tagObject(named: name), forKey: "tags") }
            }
            for attachment in snapshot.attachments {
                guard let data = attachment.imageData else { continue }
                try attach(NoteImage(storedData: data), to: note, date: attachment.dateCreated ?? NoteClock.now(), caption: attachment.caption ?? "",
                           identifier: attachment.identifier, size: attachment.width.flatMap { width in attachment.height.map { (width, $0) } })
            }
            return note
        }
        return try noteID(of: note)
    }

    /// The note holding this identifier (v5), nil when none does.
    func note(withIdentifier identifier: UUID) throws(NoteBookError) -> ManagedObject? {
        do {
            return try context.fetch(FetchRequest(entityName: Self.noteEntity,
                                                  predicate: .comparison(.keyPath(base: nil, components: ["identifier"]), .equal, .constant(.uuid(identifier)), []),
                                                  fetchLimit: 1)).first
        } catch {
            throw .wrapping(error)
        }
    }
}
