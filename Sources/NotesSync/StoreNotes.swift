import Foundation
import UnCloudNotesKit
import ManagedStore

/// The notes of a v5 store as mirror notes, and mirror notes written back into it: the one
/// place sync touches the store's objects. Writes stay in the context until the caller saves.
struct StoreNotes {
    static let noteEntity = "Note"
    static let attachmentEntity = "ImageAttachment"
    static let tagEntity = "Tag"

    let context: ManagedObjectContext

    /// Refuses a store whose notes have no identifiers (before v5).
    init(context: ManagedObjectContext, version: String) throws(SyncError) {
        guard context.model.allAttributes(of: Self.noteEntity).contains(where: { $0.name == "identifier" }),
              context.model.entity(named: Self.attachmentEntity) != nil else {
            throw .storeWithoutIdentifiers(version: version)
        }
        self.context = context
    }

    // MARK: Reading

    /// The note with this identifier, nil when the store has none.
    func note(identifier: UUID) throws -> ManagedObject? {
        let predicate = try ObjectPredicate(format: "identifier == $identifier")
        return try context.fetch(FetchRequest(entityName: Self.noteEntity, predicate: predicate, fetchLimit: 1,
                                              substitutionVariables: ["identifier": .uuid(identifier)])).first
    }

    /// Calls `body` with every note of the store, a batch at a time.
    func forEachNote(_ body: (ManagedObject) throws -> Void) throws {
        for note in try context.fetchBatched(FetchRequest(entityName: Self.noteEntity, fetchBatchSize: 200)) { try body(note) }
    }

    /// A note as its file says it, with the bytes of each image file it names.
    func mirrorNote(of note: ManagedObject) throws -> (note: MirrorNote, images: [String: Data])? {
        guard let identifier = note.value(forKey: "identifier")?.uuidValue else { return nil }
        var files: [String: Data] = [:]
        let attachments = note.objects(forKey: "attachments").sorted(by: Self.isOlder)
        let images = attachments.compactMap { attachment -> MirrorImage? in
            guard let id = attachment.value(forKey: "identifier")?.uuidValue, let bytes = attachment.value(forKey: "image")?.dataValue else { return nil }
            let file = MirrorImageFile.path(for: bytes)
            files[file] = bytes
            return MirrorImage(identifier: id, file: file, caption: attachment.value(forKey: "caption")?.stringValue ?? "",
                               width: attachment.value(forKey: "width")?.doubleValue ?? 0,
                               height: attachment.value(forKey: "height")?.doubleValue ?? 0)
        }
        let mirror = MirrorNote(identifier: identifier, title: note.value(forKey: "title")?.stringValue ?? "",
                                created: MirrorDates.rounded(note.value(forKey: "dateCreated")?.dateValue),
                                modified: MirrorDates.rounded(note.value(forKey: "dateModified")?.dateValue),
                                pinned: note.value(forKey: "pinned")?.boolValue ?? false,
                                tags: note.objects(forKey: "tags").compactMap { $0.value(forKey: "name")?.stringValue },
                                images: images, body: note.value(forKey: "body")?.stringValue ?? "")
        try context.checkReads()
        return (mirror, files)
    }

    private static func isOlder(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
        let (first, second) = (a.value(forKey: "dateCreated")?.dateValue ?? .distantPast, b.value(forKey: "dateCreated")?.dateValue ?? .distantPast)
        if first != second { return first < second }
        return (a.value(forKey: "identifier")?.uuidValue?.uuidString ?? "") < (b.value(forKey: "identifier")?.uuidValue?.uuidString ?? "")
    }

    // MARK: Writing

    /// Makes the store's note say what `note` says (inserting it when missing, at display index
    /// `nextDisplayIndex`, which then moves on); `image` reads an image file's bytes.
    /// - Returns: whether anything changed (nothing when the note already says it, so an
    ///   unchanged note gets no history).
    func write(_ note: MirrorNote, nextDisplayIndex: inout Int64, image: (String) throws -> Data) throws -> Bool {
        let object: ManagedObject
        if let existing = try self.note(identifier: note.identifier) {
            if try mirrorNote(of: existing)?.note == note { return false }
            object = existing
        } else {
            object = try context.insertObject(entityName: Self.noteEntity)
            object.setValue(.uuid(note.identifier), forKey: "identifier")
            object.setValue(.integer(nextDisplayIndex), forKey: "displayIndex")
            nextDisplayIndex = nextDisplayIndex == .max ? .max : nextDisplayIndex + 1
        }
        set(object, "title", .string(note.title))
        set(object, "body", .string(note.body))
        set(object, "dateCreated", note.created.map(AttributeValue.date))
        set(object, "dateModified", note.modified.map(AttributeValue.date))
        set(object, "pinned", .bool(note.pinned))
        try writeTags(note.tags, of: object)
        try writeImages(note.images, of: object, date: note.modified ?? note.created ?? Date(), image: image)
        return true
    }

    /// Deletes the note with this identifier and its images. - Returns: whether it was there.
    func delete(identifier: UUID) throws -> Bool {
        guard let object = try note(identifier: identifier) else { return false }
        object.objects(forKey: "attachments").forEach(context.delete)
        context.delete(object)
        return true
    }

    private func set(_ object: ManagedObject, _ key: String, _ value: AttributeValue?) {
        if object.value(forKey: key) != value { object.setValue(value, forKey: key) }
    }

    private func writeTags(_ names: [String], of note: ManagedObject) throws {
        let current = note.objects(forKey: "tags")
        let wanted = Set(names)
        for tag in current where !wanted.contains(tag.value(forKey: "name")?.stringValue ?? "") { note.removeObject(tag, forKey: "tags") }
        let have = Set(current.compactMap { $0.value(forKey: "name")?.stringValue })
        for name in names where !have.contains(name) { note.addObject(try tag(named: name), forKey: "tags") }
    }

    private func tag(named name: String) throws -> ManagedObject {
        let predicate = try ObjectPredicate(format: "name == $name")
        if let found = try context.fetch(FetchRequest(entityName: Self.tagEntity, predicate: predicate, fetchLimit: 1,
                                                      substitutionVariables: ["name": .string(name)])).first {
            return found
        }
        if let made = context.insertedObjectsList.first(where: { $0.entity.name == Self.tagEntity && $0.value(forKey: "name")?.stringValue == name }) {
            return made
        }
        let tag = try context.insertObject(entityName: Self.tagEntity)
        tag.setValue(.string(name), forKey: "name")
        return tag
    }

    /// The note's attachments become the file's images, matched by identifier; new ones are
    /// dated a millisecond apart in the file's order, so they keep it.
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
                attachment = try context.insertObject(entityName: Self.attachmentEntity)
                attachment.setValue(.uuid(picture.identifier), forKey: "identifier")
                attachment.setValue(.date(date.addingTimeInterval(Double(position) / 1000)), forKey: "dateCreated")
                attachment.setObject(note, forKey: "note")
            }
            let current = attachment.value(forKey: "image")?.dataValue
            if current.map(MirrorImageFile.path(for:)) != picture.file { set(attachment, "image", .data(try image(picture.file))) }
            set(attachment, "caption", .string(picture.caption))
            set(attachment, "width", .double(picture.width))
            set(attachment, "height", .double(picture.height))
        }
    }

    /// The display index after the store's largest, for the first note an apply inserts.
    func nextDisplayIndex() throws -> Int64 {
        let last = try context.fetch(FetchRequest(entityName: Self.noteEntity, sortDescriptors: [SortDescriptor("displayIndex", ascending: false)],
                                                  fetchLimit: 1)).first?.value(forKey: "displayIndex")?.integerValue ?? -1
        let (next, overflow) = last.addingReportingOverflow(1)
        return overflow ? Int64.max : next
    }
}
