import Foundation
import ManagedStore

extension NoteBook {
    /// Writes whole notes from another copy of the store (sync's apply) over the book's notes,
    /// with the operations the app's own edits use (`insertNote`, `attach`, the tag and
    /// display-index rules), so there is one place where a note is written. The caller saves
    /// (one transaction of many notes). Everything looked up is read before the first write: a
    /// fetch with unsaved inserts in the context also searches them in memory, which made a
    /// first sync of 10,000 notes quadratic.
    package final class WholeNoteWriter {
        private let book: NoteBook
        private var context: ManagedObjectContext { book.context }
        /// The largest display index so far; nil in an empty store.
        private var largestDisplayIndex: Int64?
        private var tags: [String: ManagedObject] = [:]
        /// A stored date as the copy keeps it (to the millisecond, say).
        private let asCopied: (Date?) -> Date?

        /// A writer for the book's version, which must have identifiers (v5). `asCopied`: a
        /// stored date at the precision the copy keeps, so a date the copy could not tell
        /// apart is not written again.
        package init(_ book: NoteBook, datesAsCopied asCopied: @escaping (Date?) -> Date?) throws {
            try book.capabilities.require(.identifiers)
            self.book = book
            self.asCopied = asCopied
            largestDisplayIndex = try context.fetch(FetchRequest(entityName: NoteBook.noteEntity,
                                                                 sortDescriptors: [SortDescriptor("displayIndex", ascending: false)], fetchLimit: 1))
                .first?.value(forKey: "displayIndex")?.integerValue
            for tag in try context.fetch(FetchRequest(entityName: NoteBook.tagEntity)) {
                if let name = tag.value(forKey: "name")?.stringValue { tags[name] = tag }
            }
        }

        /// Makes `existing` (a new note when nil) say what `note` says. `storedFile` names
        /// stored image bytes as `note`'s images name theirs, so a stored image that is the
        /// same is left alone; `bytes` reads an image the note needs.
        package func write(_ note: WholeNote, over existing: ManagedObject?, storedFile: (Data) -> String,
                           bytes: (String) throws -> Data) throws {
            // Title and body as the copy holds them: a store may hold what the app's editor
            // refuses (an empty title, from an older app), and its copies must still converge.
            let draft = NoteDraft(title: note.title, body: note.body)
            let object: ManagedObject
            if let existing {
                object = existing
            } else {
                // The display index follows the store's largest, or is refused past the last
                // possible one, as for a note added in the app.
                let index = try largestDisplayIndex.map { last throws in try book.displayIndex(after: last) } ?? 0
                object = try book.insertNote(draft, date: note.created ?? NoteClock.now(), displayIndex: index, identifier: note.identifier)
                largestDisplayIndex = index
            }
            set(object, "title", .string(draft.title))
            set(object, "body", .string(draft.body))
            set(object, "dateCreated", note.created.map(AttributeValue.date))
            set(object, "dateModified", note.modified.map(AttributeValue.date))
            set(object, "pinned", .bool(note.pinned))
            try writeTags(try TagName.checked(note.tags), of: object)
            try writeImages(note.images, of: object, date: note.modified ?? note.created ?? NoteClock.now(), storedFile: storedFile, bytes: bytes)
        }

        /// Deletes a note and its images.
        package func delete(_ note: ManagedObject) {
            note.objects(forKey: "attachments").forEach(context.delete)
            context.delete(note)
        }

        private func set(_ object: ManagedObject, _ key: String, _ value: AttributeValue?) {
            if object.value(forKey: key) != value { object.setValue(value, forKey: key) }
        }

        /// The note's tags become `names`; a tag left on no note is deleted, as the app does.
        private func writeTags(_ names: [String], of note: ManagedObject) throws {
            let wanted = Set(names)
            for tag in note.objects(forKey: "tags") where !wanted.contains(tag.value(forKey: "name")?.stringValue ?? "") {
                note.removeObject(tag, forKey: "tags")
                if tag.objects(forKey: "notes").isEmpty { tags[tag.value(forKey: "name")?.stringValue ?? ""] = nil }
                book.deleteIfUnused(tag)
            }
            let have = Set(note.objects(forKey: "tags").compactMap { $0.value(forKey: "name")?.stringValue })
            for name in names where !have.contains(name) {
                let tag = try tags[name] ?? context.insertObject(entityName: NoteBook.tagEntity)
                if tags[name] == nil {
                    tag.setValue(.string(name), forKey: "name")
                    tags[name] = tag
                }
                note.addObject(tag, forKey: "tags")
            }
        }

        /// The note's attachments become `images`, matched by identifier, dated as given;
        /// images without dates are dated a millisecond apart in their order, so they keep it.
        private func writeImages(_ images: [WholeNote.Image], of note: ManagedObject, date: Date, storedFile: (Data) -> String,
                                 bytes: (String) throws -> Data) throws {
            var existing: [UUID: ManagedObject] = [:]
            for attachment in note.objects(forKey: "attachments") {
                if let id = attachment.value(forKey: "identifier")?.uuidValue { existing[id] = attachment }
            }
            let wanted = Set(images.map(\.identifier))
            for (id, attachment) in existing where !wanted.contains(id) { context.delete(attachment) }
            for (position, picture) in images.enumerated() {
                guard let attachment = existing[picture.identifier] else {
                    try book.attach(NoteImage(storedData: try bytes(picture.file)), to: note,
                                    date: picture.created ?? date.addingTimeInterval(Double(position) / 1000), caption: picture.caption,
                                    identifier: picture.identifier, size: (picture.width, picture.height))
                    continue
                }
                // The store may hold a finer time than the copy: only another date is written.
                if let created = picture.created, asCopied(attachment.value(forKey: "dateCreated")?.dateValue) != created {
                    attachment.setValue(.date(created), forKey: "dateCreated")
                }
                if attachment.value(forKey: "image")?.dataValue.map(storedFile) != picture.file {
                    set(attachment, "image", .data(try bytes(picture.file)))
                }
                set(attachment, "caption", .string(picture.caption))
                set(attachment, "width", .double(picture.width))
                set(attachment, "height", .double(picture.height))
            }
        }
    }
}
