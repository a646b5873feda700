import Foundation
import ManagedStore

/// The notes of a store, whatever version the app runs as. Its API speaks values (`NoteID`,
/// `NoteRow`, `NoteSnapshot`, `NoteDraft`), so screens and commands never see the engine's
/// objects; inside, one untyped code path serves v1 to v5.
public final class NoteBook {
    static let noteEntity = "Note"
    static let tagEntity = "Tag"

    /// The engine's context, for the app layer and tests only.
    package let context: ManagedObjectContext
    /// What notes can hold at the book's version, so callers offer only what it allows.
    public let capabilities: NoteCapabilities
    /// The search index beside the store, opened on first use; nil when it cannot be opened or
    /// failed (a read-only folder): searches then scan, which gives the same answer, so the
    /// failure is no error.
    lazy var searchIndex: TextSearchIndex? = try? NoteSearchIndex.open(beside: context)
    /// The notes read so far, kept as they were read: a later change saves only if nobody else
    /// changed the note since (the engine's optimistic locking), instead of writing over it.
    var readNotes: [NoteID: ManagedObject] = [:]
    /// Tag names by key, read when a row first names a tag and dropped after every change of
    /// tags (here or, through `forgetReadNotes`, by another process).
    var tagNames: [Int64: String]?

    /// - Parameter version: the short name of the version the store is read as, for messages.
    package init(context: ManagedObjectContext, version: String) {
        self.context = context
        self.capabilities = NoteCapabilities(model: context.model, version: version)
    }

    /// Where the store is and how to read it, so other threads can open their own read-only books.
    public var address: NoteStoreAddress {
        NoteStoreAddress(url: context.store.url, model: context.model, version: capabilities.version)
    }

    /// Whether the store refuses changes (the user cannot write it or its folder): screens
    /// say so at once rather than at the first change.
    public var isReadOnly: Bool { context.store.writeRefusal != nil }

    /// The path of the store file, for messages.
    var storePath: String { context.store.url.path }

    /// How many notes the store holds.
    public func count() throws(NoteBookError) -> Int {
        do {
            return try context.count(FetchRequest(entityName: Self.noteEntity))
        } catch {
            throw .wrapping(error)
        }
    }

    /// The note's content and images; `.noSuchNote` when it is gone, an error when any of it
    /// cannot be read (never a note that merely looks empty).
    public func snapshot(of id: NoteID) throws(NoteBookError) -> NoteSnapshot {
        try snapshot(of: try object(for: id))
    }

    /// The note's object as first read; `.noSuchNote` when it is gone, an error when its row is damaged.
    func object(for id: NoteID) throws(NoteBookError) -> ManagedObject {
        if let known = readNotes[id], !known.isDeleted { return known }
        let found: ManagedObject?
        do {
            found = try context.existingObject(with: id.objectID)
        } catch {
            throw .wrapping(error)
        }
        guard let found, !found.isDeleted else { throw .noSuchNote(id) }
        readNotes[id] = found
        return found
    }

    /// The number of a saved note; `.unsavedNote` for an object the store has given no key.
    func noteID(of object: ManagedObject) throws(NoteBookError) -> NoteID {
        guard let key = object.objectID.primaryKey else { throw .unsavedNote }
        return NoteID(key)
    }

    func snapshot(of note: ManagedObject) throws(NoteBookError) -> NoteSnapshot {
        let id = try noteID(of: note)
        var attachments: [AttachmentSnapshot] = []
        switch capabilities.images {
        case .none:
            break
        case .one:
            if let bytes = note.value(forKey: "image")?.dataValue {
                attachments = [AttachmentSnapshot(id: AttachmentID(storage: .noteImage(id)), dateCreated: note.value(forKey: "dateCreated")?.dateValue,
                                                  imageData: bytes)]
            }
        case .several:
            attachments = note.objects(forKey: "attachments").map { attachment in
                AttachmentSnapshot(id: AttachmentID(storage: .object(attachment.objectID)),
                                   dateCreated: attachment.value(forKey: "dateCreated")?.dateValue,
                                   imageData: attachment.value(forKey: "image")?.dataValue,
                                   caption: attachment.value(forKey: "caption")?.stringValue,
                                   width: attachment.value(forKey: "width")?.doubleValue,
                                   height: attachment.value(forKey: "height")?.doubleValue,
                                   identifier: attachment.value(forKey: "identifier")?.uuidValue)
            }.sorted(by: AttachmentSnapshot.isOlder)
        }
        var snapshot = NoteSnapshot(id: id, title: note.value(forKey: "title")?.stringValue ?? "", body: note.value(forKey: "body")?.stringValue ?? "",
                                    dateCreated: note.value(forKey: "dateCreated")?.dateValue, attachments: attachments)
        snapshot.displayIndex = note.value(forKey: "displayIndex")?.integerValue ?? 0
        if capabilities.hasIdentifiers { snapshot.identifier = note.value(forKey: "identifier")?.uuidValue }
        if capabilities.recordsModification { snapshot.dateModified = note.value(forKey: "dateModified")?.dateValue }
        if capabilities.hasPins { snapshot.pinned = note.value(forKey: "pinned")?.boolValue ?? false }
        if capabilities.hasTags { snapshot.tags = note.objects(forKey: "tags").compactMap { $0.value(forKey: "name")?.stringValue }.sorted() }
        // The engine's accessors cannot throw: a row or relationship that failed to load is
        // reported here instead of reading as empty.
        do {
            try context.checkReads()
        } catch {
            throw .wrapping(error)
        }
        return snapshot
    }

    /// How many images a note has, as the list counts them.
    func imageCount(of note: ManagedObject) -> Int {
        switch capabilities.images {
        case .none: 0
        case .one: note.value(forKey: "image") == nil ? 0 : 1
        case .several: note.objects(forKey: "attachments").count
        }
    }
}

/// Where a note book's store is and which model version reads it: a value other threads (the
/// background search) use to open their own read-only book, since a book is not thread-safe.
public struct NoteStoreAddress: Sendable {
    /// The store file.
    public let url: URL
    let model: ManagedObjectModel
    let version: String

    /// A book on its own read-only connection to the store.
    public func openReadOnly() throws(NoteBookError) -> NoteBook {
        do {
            let store = try PersistentStore.open(at: url, model: model, options: StoreOptions(isReadOnly: true))
            return NoteBook(context: ManagedObjectContext(store: store, valueTransformers: UnCloudNotesModel.valueTransformers), version: version)
        } catch {
            throw .wrapping(error)
        }
    }
}
