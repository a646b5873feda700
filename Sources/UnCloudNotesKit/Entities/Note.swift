import Foundation
import ManagedStore

/// A note of the current model version (v4).
public final class Note: ManagedObject {
    @Attribute("title") public var title: String
    @Attribute("body") public var body: String
    @Attribute("dateCreated") public var dateCreated: Date?
    @Attribute("displayIndex") public var displayIndex: Int64
    @ToMany("attachments") public var attachments: [Attachment]

    /// As in the chapter's app: a note is dated when it is created.
    override public func awakeFromInsert() {
        dateCreated = Date()
    }

    /// The attachment created last.
    public var latestAttachment: Attachment? {
        attachments.max { ($0.dateCreated, $0.objectID.description) < ($1.dateCreated, $1.objectID.description) }
    }

    /// The image of the latest attachment, when that is an image attachment.
    public var image: NoteImage? {
        (latestAttachment as? ImageAttachment)?.image
    }
}

/// Something attached to a note (v3 on); in v4 only its sub-entity `ImageAttachment` is used.
public class Attachment: ManagedObject {
    @Attribute("dateCreated") public var dateCreated: Date
    @ToOne("note") public var note: Note?
}

/// An image attached to a note, with its size and a caption (v4).
public final class ImageAttachment: Attachment {
    @Attribute("caption") public var caption: String
    @Attribute("width") public var width: Float
    @Attribute("height") public var height: Float
    @Transformed("image") public var image: NoteImage?
}
