import Foundation
import ManagedStore

/// Changing notes. Each call saves once, or leaves the store as it was and throws.
extension NoteBook {
    /// Adds a note dated `date`, with its images as the version stores them.
    /// - Returns: the new note's ID.
    @discardableResult
    public func add(_ draft: NoteDraft, images: [NoteImage] = [], date: Date = NoteClock.now()) throws(NoteBookError) -> NoteID {
        let draft = try draft.checked()
        try capabilities.checkAttaching(images.count, toNoteWith: 0, of: nil, replacing: false)
        if draft.tags?.isEmpty == false { try capabilities.require(.tags) }
        let note = try changing {
            let note = try insertNote(draft, date: date, displayIndex: try nextDisplayIndex())
            for name in draft.tags ?? [] { note.addObject(try tagObject(named: name), forKey: "tags") }
            for (offset, image) in images.enumerated() {
                try attach(image, to: note, date: date.addingTimeInterval(Double(offset) / 1000), caption: Self.newImageCaption)
            }
            return note
        }
        return try noteID(of: note)
    }

    /// Changes a note's title and body, and its tags when the draft has them (v5).
    public func update(_ id: NoteID, with draft: NoteDraft) throws(NoteBookError) {
        let draft = try draft.checked()
        if draft.tags != nil { try capabilities.require(.tags) }
        let note = try object(for: id)
        try changing {
            note.setValue(.string(draft.title), forKey: "title")
            note.setValue(.string(draft.body), forKey: "body")
            if let names = draft.tags { try replaceTags(of: note, with: names) }
            noteChanged(note)
        }
    }

    /// Gives a note exactly these tags (checked names), made as needed; emptied ones deleted.
    func replaceTags(of note: ManagedObject, with names: [String]) throws {
        for tag in note.objects(forKey: "tags") where !names.contains(tag.value(forKey: "name")?.stringValue ?? "") {
            note.removeObject(tag, forKey: "tags")
            deleteIfUnused(tag)
        }
        let kept = Set(note.objects(forKey: "tags").compactMap { $0.value(forKey: "name")?.stringValue })
        for name in names where !kept.contains(name) { note.addObject(try tagObject(named: name), forKey: "tags") }
    }

    /// Attaches checked images to a note (the latest last), as the version stores them: refused in
    /// v1, and in v2 beyond one image, or onto a note that has its image unless `replacing` it.
    /// - Parameter caption: each image's caption (v4 stores it; earlier versions have none).
    /// - Returns: how many images the note has now.
    @discardableResult
    public func attach(_ images: [NoteImage], to id: NoteID, caption: String = newImageCaption, replacing: Bool = false) throws(NoteBookError) -> Int {
        let note = try object(for: id)
        try capabilities.checkAttaching(images.count, toNoteWith: imageCount(of: note), of: id, replacing: replacing)
        let now = NoteClock.now()
        try changing {
            for (offset, image) in images.enumerated() {
                try attach(image, to: note, date: now.addingTimeInterval(Double(offset) / 1000), caption: caption)
            }
            noteChanged(note, at: now)
        }
        return imageCount(of: note)
    }

    /// Removes one image: an attachment (v3, v4), or v2's image.
    public func deleteAttachment(_ id: AttachmentID) throws(NoteBookError) {
        switch id.storage {
        case .noteImage(let noteID):
            let note = try object(for: noteID)
            guard note.value(forKey: "image") != nil else { throw .noSuchAttachment(id) }
            try changing {
                note.setValue(nil, forKey: "image")
                noteChanged(note)
            }
        case .object:
            let attachment = try attachmentObject(id)
            try changing {
                if let note = attachment.object(forKey: "note") { noteChanged(note) }
                context.delete(attachment)
            }
        }
    }

    /// Sets an image's caption (v4).
    public func setCaption(_ caption: String, of id: AttachmentID) throws(NoteBookError) {
        guard capabilities.hasCaptions else { throw .noCaptionsInThisVersion(version: capabilities.version) }
        let attachment = try attachmentObject(id)
        try changing {
            attachment.setValue(.string(caption), forKey: "caption")
            if let note = attachment.object(forKey: "note") { noteChanged(note) }
        }
    }

    /// The caption a new image gets when none is typed: the chapter's app set "New Photo" (and
    /// wished for a field to enter it), so the attach prompt and `notes attach --caption` offer
    /// this and let the user type another.
    public static let newImageCaption = "New Photo"

    // MARK: Inside the app layer

    /// Runs `change` and saves it; on any error undoes everything it did, so the context holds
    /// what the store holds.
    @discardableResult
    func changing<Result>(_ change: () throws -> Result) throws(NoteBookError) -> Result {
        do {
            let result = try change()
            let pending = PendingNoteChange(in: context)
            try context.save()
            tagNames = nil
            refreshSearchIndex(after: pending)
            return result
        } catch {
            context.rollback()
            throw .wrapping(error)
        }
    }

    /// - Parameter identifier: v5: the note's identity (a new one when nil).
    /// - Parameter reusingNumber: the number a deleted note had, to have again (an undo).
    func insertNote(_ draft: NoteDraft, date: Date, displayIndex: Int64, identifier: UUID? = nil, reusingNumber: NoteID? = nil) throws -> ManagedObject {
        let note = try reusingNumber.map { try context.insertObject(entityName: Self.noteEntity, reusingPrimaryKey: $0.number) }
            ?? context.insertObject(entityName: Self.noteEntity)
        note.setValue(.string(draft.title), forKey: "title")
        note.setValue(.string(draft.body), forKey: "body")
        note.setValue(.date(date), forKey: "dateCreated")
        note.setValue(.integer(displayIndex), forKey: "displayIndex")
        if capabilities.hasIdentifiers { note.setValue(.uuid(identifier ?? UUID()), forKey: "identifier") }
        if capabilities.hasPins { note.setValue(.bool(false), forKey: "pinned") }
        noteChanged(note, at: date)
        return note
    }

    /// v5 records when a note last changed.
    func noteChanged(_ note: ManagedObject, at date: Date = NoteClock.now()) {
        if capabilities.recordsModification { note.setValue(.date(date), forKey: "dateModified") }
    }

    /// Stores one image the way the version does (v2 replaces the note's image); v4 records its
    /// size (read from the image unless given) and the caption; v5 its identifier (new when nil).
    func attach(_ image: NoteImage, to note: ManagedObject, date: Date, caption: String, identifier: UUID? = nil,
                size: (width: Double, height: Double)? = nil) throws {
        guard let entity = capabilities.attachmentEntity else {
            note.setValue(.data(image.data), forKey: "image")
            return
        }
        let attachment = try context.insertObject(entityName: entity)
        attachment.setValue(.date(date), forKey: "dateCreated")
        if capabilities.hasIdentifiers { attachment.setValue(.uuid(identifier ?? UUID()), forKey: "identifier") }
        attachment.setValue(.data(image.data), forKey: "image")
        if capabilities.hasCaptions {
            let size = try size ?? Self.doubles(image.pixelSize())
            attachment.setValue(.double(size.width), forKey: "width")
            attachment.setValue(.double(size.height), forKey: "height")
            attachment.setValue(.string(caption), forKey: "caption")
        }
        attachment.setObject(note, forKey: "note")
    }

    private static func doubles(_ size: (width: Int, height: Int)) -> (width: Double, height: Double) {
        (Double(size.width), Double(size.height))
    }

    /// The next display index after the store's largest.
    func nextDisplayIndex() throws(NoteBookError) -> Int64 {
        let last: [ManagedObject]
        do {
            last = try context.fetch(FetchRequest(entityName: Self.noteEntity, sortDescriptors: [SortDescriptor("displayIndex", ascending: false)],
                                                  fetchLimit: 1))
        } catch {
            throw .wrapping(error)
        }
        guard let index = last.first?.value(forKey: "displayIndex")?.integerValue else { return 0 }
        return try displayIndex(after: index)
    }

    /// The display index after `index` (`DisplayIndex`).
    func displayIndex(after index: Int64) throws(NoteBookError) -> Int64 {
        try DisplayIndex.after(index, store: storePath)
    }

    private func attachmentObject(_ id: AttachmentID) throws(NoteBookError) -> ManagedObject {
        guard case .object(let objectID) = id.storage else { throw .noSuchAttachment(id) }
        let found: ManagedObject?
        do {
            found = try context.existingObject(with: objectID)
        } catch {
            throw .wrapping(error)
        }
        guard let found, !found.isDeleted else { throw .noSuchAttachment(id) }
        return found
    }
}
