import Foundation

/// What one row of the notes list shows, read without loading bodies or images.
public struct NoteRow: Equatable, Sendable {
    /// The note the row shows.
    public var id: NoteID
    /// The note's title.
    public var title: String
    /// When the note was made; nil when the store holds no date.
    public var dateCreated: Date?
    /// How many images the note has (0 before v2).
    public var imageCount: Int
    /// v5: when the note last changed (nil before v5).
    public var dateModified: Date?
    /// v5: pinned notes list first.
    public var pinned: Bool
    /// v5: the note's tag names, sorted.
    public var tags: [String]

    /// A row from its parts, as the book reads it.
    public init(id: NoteID, title: String, dateCreated: Date?, imageCount: Int, dateModified: Date? = nil, pinned: Bool = false,
                tags: [String] = []) {
        self.id = id
        self.title = title
        self.dateCreated = dateCreated
        self.imageCount = imageCount
        self.dateModified = dateModified
        self.pinned = pinned
        self.tags = tags
    }

    /// The date the list sorts by, which is also the one it shows.
    public func date(sortedBy sort: NoteSort) -> Date? {
        switch sort {
        case .created: dateCreated
        case .modified: dateModified ?? dateCreated
        }
    }
}

/// Which page of the list to read.
public struct ListPage: Equatable, Sendable {
    /// At most this many notes; nil for all.
    public var limit: Int?
    /// Notes to skip first.
    public var offset: Int

    /// A page; the defaults read the whole list.
    public init(limit: Int? = nil, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }
}
