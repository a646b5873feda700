import Foundation
import ManagedStore
import UnCloudNotesKit

/// Writes mirror notes into the store's context for one apply (the caller saves). Everything
/// it looks up is read before the first write: a fetch with unsaved inserts in the context
/// also searches them in memory, which made a first sync of 10,000 notes quadratic.
final class NoteWriter {
    private let notes: StoreNotes
    private var context: ManagedObjectContext { notes.context }
    /// The largest display index so far; the next note inserted gets the one after it, or an
    /// error past the largest possible, as the app refuses it (`DisplayIndex`).
    private var largestDisplayIndex: Int64?
    private var tags: [String: ManagedObject]

    init(_ notes: StoreNotes) throws {
        self.notes = notes
        largestDisplayIndex = try notes.largestDisplayIndex()
        tags = try notes.tagsByName()
    }

    /// Makes `existing` (or a new note when nil) say what `note` says; `image` reads an image
    /// file's bytes. - Returns: whether anything changed (nothing when the note already says it,
    /// so an unchanged note gets no history).
    func write(_ note: MirrorNote, over existing: ManagedObject?, image: (String) throws -> Data) throws -> Bool {
        let object: ManagedObject
        if let existing {
            if try notes.mirrorNote(of: existing)?.note == note { return false }
            object = existing
        } else {
            object = try context.insertObject(entityName: StoreNotes.noteEntity)
            object.setValue(.uuid(note.identifier), forKey: "identifier")
            let index = try largestDisplayIndex.map { last throws in try DisplayIndex.after(last, store: context.store.url.path) } ?? 0
            object.setValue(.integer(index), forKey: "displayIndex")
            largestDisplayIndex = index
        }
        set(object, "title", .string(note.title))
        set(object, "body", .string(note.body))
        set(object, "dateCreated", note.created.map(AttributeValue.date))
        set(object, "dateModified", note.modified.map(AttributeValue.date))
        set(object, "pinned", .bool(note.pinned))
        try writeTags(note.tags, of: object)
        try writeImages(note.images, of: object, date: note.modified ?? note.created ?? NoteClock.now(), image: image)
        return true
    }

    /// Deletes a note and its images.
    func delete(_ note: ManagedObject) {
        note.objects(forKey: "attachments").forEach(context.delete)
        context.delete(note)
    }

    private func set(_ object: ManagedObject, _ key: String, _ value: AttributeValue?) {
        if object.value(forKey: key) != value { object.setValue(value, forKey: key) }
    }

    /// The note's tags become `names`; a tag left on no note is deleted, as the app does.
    private func writeTags(_ names: [String], of note: ManagedObject) throws {
        let current = note.objects(forKey: "tags")
        let wanted = Set(names)
        for tag in current where !wanted.contains(tag.value(forKey: "name")?.stringValue ?? "") {
            note.removeObject(tag, forKey: "tags")
            if tag.objects(forKey: "notes").isEmpty {
                tags[tag.value(forKey: "name")?.stringValue ?? ""] = nil
                context.delete(tag)
            }
        }
        let have = Set(current.compactMap { $0.value(forKey: "name")?.stringValue })
        for name in names where !have.contains(name) { note.addObject(try tag(named: name), forKey: "tags") }
    }

    private func tag(named name: String) throws -> ManagedObject {
        if let known = tags[name] { return known }
        let tag = try context.insertObject(entityName: StoreNotes.tagEntity)
        tag.setValue(.string(name), forKey: "name")
        tags[name] = tag
        return tag
    }

    /// The note's attachments become the file's images, matched by identifier, dated as the
    /// file says; images of files without dates are dated a millisecond apart in the file's
    /// order, so they keep it.
    private func writeImages(_ images: [MirrorImage], of note: ManagedObject, date: Date, image: (String) throws -> Data) throws {
        var existing: [UUID: ManagedObject] = [:]
        for attachment in note.objects(forKey: "attachments") {
            if let id = attachment.value(forKey: "identifier")?.uuidValue { existing[id] = attachment }
        }
        let wanted = Set(images.map(\.identifier))
        for (id, attachment) in existing where !wanted.contains(id) { context.delete(attachment) }
        for (position, picture) in images.enumerated() {
            let attachment: ManagedObject
            if let found = existing[picture.identifier] {
                attachment = found
            } else {
                attachment = try context.insertObject(entityName: StoreNotes.attachmentEntity)
                attachment.setValue(.uuid(picture.identifier), forKey: "identifier")
                attachment.setValue(.date(picture.created ?? date.addingTimeInterval(Double(position) / 1000)), forKey: "dateCreated")
                attachment.setObject(note, forKey: "note")
            }
            // The store may hold a finer time than the file's millisecond: only another date is written.
            if let created = picture.created, MirrorDates.rounded(attachment.value(forKey: "dateCreated")?.dateValue) != created {
                attachment.setValue(.date(created), forKey: "dateCreated")
            }
            let current = attachment.value(forKey: "image")?.dataValue
            if current.map(notes.imageNaming.path(for:)) != picture.file { set(attachment, "image", .data(try image(picture.file))) }
            set(attachment, "caption", .string(picture.caption))
            set(attachment, "width", .double(picture.width))
            set(attachment, "height", .double(picture.height))
        }
    }
}
