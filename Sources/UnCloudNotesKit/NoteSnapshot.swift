import Foundation

/// A note's content and images, copied out of the store for display, whatever version wrote it.
public struct NoteSnapshot: Equatable, Sendable {
    /// The note.
    public let id: NoteID
    /// The note's title.
    public var title: String
    /// The note's body.
    public var body: String
    /// When the note was made; nil when the store holds no date.
    public var dateCreated: Date?
    /// Oldest first (see `AttachmentSnapshot.isOlder`).
    public var attachments: [AttachmentSnapshot]
    /// v5: the note's stable identity, kept across exports, imports and undo (nil before v5).
    public var identifier: UUID?
    /// v5: when the note last changed.
    public var dateModified: Date?
    /// v5: whether it lists first.
    public var pinned = false
    /// v5: its tag names, sorted.
    public var tags: [String] = []
    /// The display index the chapter's app orders by, kept so an undone delete restores it.
    var displayIndex: Int64 = 0

    /// The attachment created last, whose image the list shows: the chapter's `latestAttachment`.
    public var latestAttachment: AttachmentSnapshot? { attachments.last }
}

/// One image of a note.
public struct AttachmentSnapshot: Equatable, Sendable {
    /// The image, to delete it or change its caption.
    public let id: AttachmentID
    /// When the image was attached; nil for v2's image, which has no date of its own.
    public var dateCreated: Date?
    /// The image's encoded bytes; nil when the attachment holds none.
    public var imageData: Data?
    /// v4 only.
    public var caption: String?
    /// The image's width in pixels as v4 records it; nil before v4.
    public var width: Double?
    /// The image's height in pixels as v4 records it; nil before v4.
    public var height: Double?
    /// v5: the attachment's stable identity.
    public var identifier: UUID?

    /// The order of a note's attachments (`AttachmentOrder`).
    static func isOlder(_ a: AttachmentSnapshot, than b: AttachmentSnapshot) -> Bool {
        AttachmentOrder.isOlder((a.dateCreated, a.id.description), than: (b.dateCreated, b.id.description))
    }
}
