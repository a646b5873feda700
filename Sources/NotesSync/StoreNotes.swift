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
    /// The short name of the version the store runs as, for messages.
    let version: String
    /// How the mirror names image files (keyed in an encrypted mirror).
    var imageNaming = MirrorImageFile.Naming.contentHash

    /// Refuses a store whose notes have no identifiers (before v5).
    init(context: ManagedObjectContext, version: String) throws(SyncError) {
        guard context.model.allAttributes(of: Self.noteEntity).contains(where: { $0.name == "identifier" }),
              context.model.entity(named: Self.attachmentEntity) != nil else {
            throw .storeWithoutIdentifiers(version: version)
        }
        self.context = context
        self.version = version
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
            let file = imageNaming.path(for: bytes)
            files[file] = bytes
            return MirrorImage(identifier: id, file: file, created: MirrorDates.rounded(attachment.value(forKey: "dateCreated")?.dateValue),
                               caption: attachment.value(forKey: "caption")?.stringValue ?? "",
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
        func key(_ image: ManagedObject) -> (date: Date?, stored: String) {
            (image.value(forKey: "dateCreated")?.dateValue, image.objectID.description)
        }
        return AttachmentOrder.isOlder(key(a), than: key(b))
    }
}
