import Foundation
import ManagedStore

/// How one note of an export becomes a note of the book: added, or merged into the stored note
/// with its identifier; and the reads an import's decisions need.
extension NoteBook {
    /// Adds one note of an archive, with its identifiers when kept (v5).
    func insert(_ note: NotesArchive.Note, displayIndex: Int64, keepingIdentifiers: Bool, tags: inout [String: ManagedObject]) throws {
        let draft = try NoteDraft(title: note.title, body: note.body).checked()
        let date = note.dateCreated ?? NoteClock.now()
        let object = try insertNote(draft, date: date, displayIndex: displayIndex, identifier: keepingIdentifiers ? note.identifier : nil)
        if capabilities.recordsModification, let modified = note.dateModified { object.setValue(.date(modified), forKey: "dateModified") }
        if capabilities.hasPins { object.setValue(.bool(note.pinned ?? false), forKey: "pinned") }
        if capabilities.hasTags {
            for name in try TagName.checked(note.tags ?? []) {
                let tag = try tags[name] ?? tagObject(named: name)
                tags[name] = tag
                object.addObject(tag, forKey: "tags")
            }
        }
        for (offset, image) in note.images.enumerated() {
            try attach(NoteImage(storedData: image.data), to: object, date: image.dateCreated ?? date.addingTimeInterval(Double(offset) / 1000),
                       caption: image.caption ?? Self.newImageCaption, identifier: keepingIdentifiers ? image.identifier : nil)
        }
    }

    /// The notes the book held before the import (display index below `firstNewIndex`) with
    /// these identifiers: one statement per batch, through the identifiers' unique index.
    func notes(before firstNewIndex: Int64, withIdentifiers identifiers: Set<UUID>) throws -> [UUID: ManagedObject] {
        guard !identifiers.isEmpty else { return [:] }
        var read = RowProperties()
        let identifier = read.add(.attribute("identifier")) { $0?.uuidValue }
        let predicate = ObjectPredicate.and([
            .comparison(.keyPath(base: nil, components: ["identifier"]), .in, .aggregate(identifiers.map { .constant(.uuid($0)) }), []),
            .comparison(.keyPath(base: nil, components: ["displayIndex"]), .less, .constant(.integer(firstNewIndex)), []),
        ])
        var keys: [UUID: Int64] = [:]
        try context.forEachRow(of: PropertyFetchRequest(entityName: Self.noteEntity, properties: read.properties, predicate: predicate)) { row in
            if let id = identifier.value(in: row) { keys[id] = row.primaryKey }
        }
        return try keys.compactMapValues { key in try context.existingObject(with: ObjectID(entityName: Self.noteEntity, primaryKey: key)) }
    }

    /// Every tag of the book by name.
    func tagsByName() throws -> [String: ManagedObject] {
        var tags: [String: ManagedObject] = [:]
        guard capabilities.hasTags else { return tags }
        for tag in try context.fetch(FetchRequest(entityName: Self.tagEntity)) {
            if let name = tag.value(forKey: "name")?.stringValue { tags[name] = tag }
        }
        return tags
    }

    /// Changes a stored note to the file's version when that was modified later: text, dates,
    /// pin and tags, and the images the note lacks (by identifier). Returns whether it changed.
    func updateIfNewer(_ stored: ManagedObject, to note: NotesArchive.Note) throws -> Bool {
        let storedModified = stored.value(forKey: "dateModified")?.dateValue ?? .distantPast
        guard let modified = note.dateModified, modified.timeIntervalSince(storedModified) >= 1 else { return false }
        let draft = try NoteDraft(title: note.title, body: note.body, tags: note.tags ?? []).checked()
        stored.setValue(.string(draft.title), forKey: "title")
        stored.setValue(.string(draft.body), forKey: "body")
        if let created = note.dateCreated { stored.setValue(.date(created), forKey: "dateCreated") }
        stored.setValue(.bool(note.pinned ?? false), forKey: "pinned")
        try replaceTags(of: stored, with: draft.tags ?? [])
        let present = Set(stored.objects(forKey: "attachments").compactMap { $0.value(forKey: "identifier")?.uuidValue })
        for image in note.images where image.identifier.map({ !present.contains($0) }) ?? true {
            try attach(NoteImage(storedData: image.data), to: stored, date: image.dateCreated ?? modified, caption: image.caption ?? Self.newImageCaption,
                       identifier: image.identifier)
        }
        stored.setValue(.date(modified), forKey: "dateModified")
        return true
    }
}
