import Foundation

/// A note whole, as another copy of the store holds it (sync's mirror file): everything
/// `NoteBook.WholeNoteWriter` makes a stored note say, identifiers included. Dates are as the
/// copy has them (nil where it has none).
public struct WholeNote: Equatable, Sendable {
    /// One image of the note: its attachment's identifier and values, and the file holding its
    /// bytes (sync's `MirrorImage`). The writer reads the file only when the stored image is not
    /// these bytes already.
    public struct Image: Equatable, Sendable {
        public var identifier: UUID
        /// Names the bytes: in a mirror, `images/<hash of the bytes>.<ext>`, so equal images are
        /// one file and a name never changes meaning (two machines adding it never conflict).
        public var file: String
        /// When it was attached (to the millisecond in a mirror): images are ordered by it, so
        /// every machine shows a note's images in the same order. Files written before it was
        /// kept have none.
        public var created: Date?
        public var caption: String
        public var width: Double
        public var height: Double

        public init(identifier: UUID, file: String, created: Date? = nil, caption: String, width: Double, height: Double) {
            self.identifier = identifier
            self.file = file
            self.created = created
            self.caption = caption
            self.width = width
            self.height = height
        }
    }

    public var identifier: UUID
    public var title: String
    public var body: String
    public var created: Date?
    public var modified: Date?
    public var pinned: Bool
    public var tags: [String]
    public var images: [Image]

    public init(identifier: UUID, title: String, body: String, created: Date?, modified: Date?, pinned: Bool, tags: [String], images: [Image]) {
        self.identifier = identifier
        self.title = title
        self.body = body
        self.created = created
        self.modified = modified
        self.pinned = pinned
        self.tags = tags
        self.images = images
    }
}
