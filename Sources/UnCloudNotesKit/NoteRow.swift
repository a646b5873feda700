import Foundation

/// What one row of the notes list shows, read without loading bodies or images.
public struct NoteRow: Equatable, Sendable {
    public var id: NoteID
    public var title: String
    public var dateCreated: Date?
    public var imageCount: Int

    public init(id: NoteID, title: String, dateCreated: Date?, imageCount: Int) {
        self.id = id
        self.title = title
        self.dateCreated = dateCreated
        self.imageCount = imageCount
    }
}

/// Which page of the list to read.
public struct ListPage: Equatable, Sendable {
    public var limit: Int?
    public var offset: Int

    public init(limit: Int? = nil, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }
}
