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

    /// A row from its parts, as the book reads it.
    public init(id: NoteID, title: String, dateCreated: Date?, imageCount: Int) {
        self.id = id
        self.title = title
        self.dateCreated = dateCreated
        self.imageCount = imageCount
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
