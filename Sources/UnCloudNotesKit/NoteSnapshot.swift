import Foundation
import ManagedStore

/// A note's content, copied out of the store for display, whatever version wrote it.
public struct NoteSnapshot: Equatable, Sendable {
    public let id: ObjectID
    public var title: String
    public var body: String
    public var dateCreated: Date?
    /// Oldest first. In v2 the note's single image appears as one attachment without an ID.
    public var attachments: [AttachmentSnapshot]

    /// The attachment created last, whose image the list shows.
    public var latestAttachment: AttachmentSnapshot? { attachments.last }
}

public struct AttachmentSnapshot: Equatable, Sendable {
    /// Nil for v2's image, which is not an object of its own.
    public let id: ObjectID?
    public var dateCreated: Date?
    public var imageData: Data?
    /// v4 only.
    public var caption: String?
    public var width: Double?
    public var height: Double?
}

extension NoteBook {
    /// The note's content and attachments.
    public func snapshot(of note: ManagedObject) -> NoteSnapshot {
        var attachments: [AttachmentSnapshot] = []
        switch capabilities.images {
        case .none:
            break
        case .one:
            if case .data(let bytes)? = note.value(forKey: "image") {
                attachments = [AttachmentSnapshot(id: nil, dateCreated: Self.date(note), imageData: bytes)]
            }
        case .attachments:
            attachments = note.objects(forKey: "attachments").map { attachment in
                AttachmentSnapshot(id: attachment.objectID, dateCreated: Self.date(attachment),
                                   imageData: { if case .data(let bytes)? = attachment.value(forKey: "image") { bytes } else { nil } }(),
                                   caption: Self.string(attachment, "caption"),
                                   width: { if case .double(let value)? = attachment.value(forKey: "width") { value } else { nil } }(),
                                   height: { if case .double(let value)? = attachment.value(forKey: "height") { value } else { nil } }())
            }.sorted { ($0.dateCreated ?? .distantPast, $0.id?.description ?? "") < ($1.dateCreated ?? .distantPast, $1.id?.description ?? "") }
        }
        return NoteSnapshot(id: note.objectID, title: Self.string(note, "title") ?? "", body: Self.string(note, "body") ?? "",
                            dateCreated: Self.date(note), attachments: attachments)
    }

    /// How many images a note has, without reading them (for list rows).
    public func attachmentCount(of note: ManagedObject) -> Int {
        switch capabilities.images {
        case .none: return 0
        case .one: return note.value(forKey: "image") == nil ? 0 : 1
        case .attachments: return note.objects(forKey: "attachments").count
        }
    }

    /// Changes a note's title and body, and saves.
    public func update(_ note: ManagedObject, title: String, body: String) throws {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw NoteBookError("a note needs a title") }
        note.setValue(.string(title), forKey: "title")
        note.setValue(.string(body), forKey: "body")
        try saveOrRollBack()
    }

    /// Deletes a note; its attachments go with it.
    public func delete(_ note: ManagedObject) throws {
        if case .attachments = capabilities.images {
            note.objects(forKey: "attachments").forEach(context.delete)
        }
        context.delete(note)
        try saveOrRollBack()
    }

    /// Attaches a checked image to a note, and saves.
    public func attachImage(_ image: NoteImage, to note: ManagedObject) throws {
        try attach(image, to: note)
        try saveOrRollBack()
    }

    /// Removes one attachment (v3, v4), or v2's image.
    public func deleteAttachment(_ attachment: AttachmentSnapshot, of note: ManagedObject) throws {
        if let id = attachment.id, let object = context.object(with: id) {
            context.delete(object)
        } else {
            note.setValue(nil, forKey: "image")
        }
        try saveOrRollBack()
    }

    /// Sets an image attachment's caption (v4).
    public func setCaption(_ caption: String, of attachment: AttachmentSnapshot) throws {
        guard let id = attachment.id, let object = context.object(with: id) else {
            throw NoteBookError("this image has no caption to edit")
        }
        object.setValue(.string(caption), forKey: "caption")
        try saveOrRollBack()
    }

    /// The note with this ID, if it still exists.
    public func note(with id: ObjectID) -> ManagedObject? {
        guard let note = context.object(with: id), note.value(forKey: "title") != nil else { return nil }
        return note
    }

    /// Notes whose title or body contains the text, ignoring case and diacritics.
    public static func searchPredicate(_ text: String) -> ObjectPredicate {
        .or([.comparison(.keyPath(base: nil, components: ["title"]), .contains, .constant(.string(text)), [.caseInsensitive, .diacriticInsensitive]),
             .comparison(.keyPath(base: nil, components: ["body"]), .contains, .constant(.string(text)), [.caseInsensitive, .diacriticInsensitive])])
    }

    /// Saves changes made with `attach`, or undoes them all on error.
    public func saveChanges() throws {
        try saveOrRollBack()
    }

    func saveOrRollBack() throws {
        let change = PendingNoteChange(in: context)
        do {
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
        refreshSearchIndex(after: change)
    }

    private static func string(_ object: ManagedObject, _ key: String) -> String? {
        if case .string(let text)? = object.value(forKey: key) { return text }
        return nil
    }

    private static func date(_ object: ManagedObject) -> Date? {
        if case .date(let date)? = object.value(forKey: "dateCreated") { return date }
        return nil
    }
}
