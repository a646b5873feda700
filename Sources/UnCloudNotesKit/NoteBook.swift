import Foundation
import ManagedStore

/// What the app can do with notes at the model version it runs as: v1 has no images, v2 one
/// image per note, v3 several attachments, v4 image attachments with captions.
public struct NoteCapabilities: Equatable, Sendable {
    public enum Images: Equatable, Sendable {
        case none
        /// v2: `Note.image`.
        case one
        /// v3: `Attachment` objects; v4: `ImageAttachment` objects with a caption and size.
        case attachments(entity: String, captions: Bool)
    }

    public let images: Images

    public init(model: ManagedObjectModel) {
        if let attachment = model.entity(named: "ImageAttachment") {
            images = .attachments(entity: attachment.name, captions: model.allAttributes(of: attachment.name).contains { $0.name == "caption" })
        } else if model.entity(named: "Attachment") != nil {
            images = .attachments(entity: "Attachment", captions: false)
        } else if model.allAttributes(of: "Note").contains(where: { $0.name == "image" }) {
            images = .one
        } else {
            images = .none
        }
    }

    public var maxImagesPerNote: Int? {
        switch images {
        case .none: 0
        case .one: 1
        case .attachments: nil
        }
    }
}

/// The notes of a store, whatever version the app runs as, through untyped objects so one code
/// path serves v1 to v4.
public final class NoteBook {
    public let context: ManagedObjectContext
    public let capabilities: NoteCapabilities
    /// The search index beside the store, opened on first use; nil when it cannot be opened or
    /// failed (searches then scan).
    lazy var searchIndex: NoteSearchIndex? = try? NoteSearchIndex(beside: context)

    public init(context: ManagedObjectContext) {
        self.context = context
        self.capabilities = NoteCapabilities(model: context.model)
    }

    /// Newest first, as the chapter's list shows them.
    public static let newestFirst = [SortDescriptor("dateCreated", ascending: false)]

    /// Adds a note dated now, with its images as the version stores them, and saves.
    @discardableResult
    public func addNote(title: String, body: String, images: [NoteImage] = [], date: Date = Date()) throws -> ManagedObject {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw NoteBookError("a note needs a title") }
        if let limit = capabilities.maxImagesPerNote, images.count > limit {
            throw NoteBookError(limit == 0 ? "notes of this model version have no images (run as v2 or later)"
                                           : "notes of this model version hold one image (run as v3 or later for more)")
        }
        let displayIndex = try nextDisplayIndex()
        let note = try context.insertObject(entityName: "Note")
        note.setValue(.string(title), forKey: "title")
        note.setValue(.string(body), forKey: "body")
        note.setValue(.date(date), forKey: "dateCreated")
        note.setValue(.integer(displayIndex), forKey: "displayIndex")
        for (offset, image) in images.enumerated() {
            try attach(image, to: note, date: date.addingTimeInterval(Double(offset) / 1000))
        }
        try saveOrRollBack()
        return note
    }

    /// Attaches an image the way the version stores it (v2 replaces the note's image).
    public func attach(_ image: NoteImage, to note: ManagedObject, date: Date = Date(), caption: String? = nil) throws {
        switch capabilities.images {
        case .none:
            throw NoteBookError("notes of this model version have no images (run as v2 or later)")
        case .one:
            note.setValue(.data(image.data), forKey: "image")
        case .attachments(let entity, let captions):
            let attachment = try context.insertObject(entityName: entity)
            attachment.setValue(.date(date), forKey: "dateCreated")
            attachment.setValue(.data(image.data), forKey: "image")
            if captions {
                let size = (try? image.pixelSize()) ?? (width: 0, height: 0)
                attachment.setValue(.double(Double(size.width)), forKey: "width")
                attachment.setValue(.double(Double(size.height)), forKey: "height")
                let body = (note.value(forKey: "body")).flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
                attachment.setValue(.string(caption ?? Self.defaultCaption(fromBody: body)), forKey: "caption")
            }
            attachment.setObject(note, forKey: "note")
        }
    }

    /// The caption a new image gets: the start of the note's body on one line, at most
    /// `captionLength` characters (grapheme clusters), cut after a whole word; a single longer
    /// word is cut at the length.
    public static func defaultCaption(fromBody body: String) -> String {
        let limit = AttachmentToImageAttachmentMigrationPolicyV3toV4.captionLength
        let words = body.split(whereSeparator: \.isWhitespace)
        var caption = ""
        for word in words {
            let candidate = caption.isEmpty ? String(word) : caption + " " + word
            guard candidate.count <= limit else { break }
            caption = candidate
        }
        if caption.isEmpty, let first = words.first { return String(first.prefix(limit)) }
        return caption
    }

    /// Notes, newest first, read a batch at a time.
    public func notes(matching predicate: ObjectPredicate? = nil) throws -> FetchedResults {
        try context.fetchBatched(FetchRequest(entityName: "Note", predicate: predicate, sortDescriptors: Self.newestFirst,
                                              fetchBatchSize: 100))
    }

    public func count() throws -> Int {
        try context.count(FetchRequest(entityName: "Note"))
    }

    func nextDisplayIndex() throws -> Int64 {
        let last = try context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [SortDescriptor("displayIndex", ascending: false)], fetchLimit: 1))
        if case .integer(let index)? = last.first?.value(forKey: "displayIndex") { return try displayIndex(after: index) }
        return 0
    }

    /// The next display index; the store's largest one (from a damaged or hand-edited store) is refused.
    func displayIndex(after index: Int64) throws -> Int64 {
        let (next, overflow) = index.addingReportingOverflow(1)
        guard !overflow else {
            throw NoteBookError("\(context.store.url.path): a note's display index is \(index), the largest possible; "
                + "export the notes and import them into a new store")
        }
        return next
    }
}

/// A refused note operation, with a message for the user.
public struct NoteBookError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
