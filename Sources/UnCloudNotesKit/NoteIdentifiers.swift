import ManagedStore

/// A note, as the screens and the command line name it: its number in the store (the primary
/// key `notes list` prints). Callers never build the engine's object IDs or name an entity.
public struct NoteID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The store's primary key of the note.
    public let number: Int64

    /// The note whose primary key is `number`.
    public init(_ number: Int64) {
        self.number = number
    }

    /// The number, as `notes list` prints it and commands take it.
    public var description: String { "\(number)" }

    /// Orders notes by number, which is the order they were first saved.
    public static func < (lhs: NoteID, rhs: NoteID) -> Bool { lhs.number < rhs.number }

    var objectID: ObjectID { ObjectID(entityName: NoteBook.noteEntity, primaryKey: number) }
}

/// One image of a note: an attachment object (v3, v4), or v2's single image, which is a
/// property of its note rather than an object of its own.
public struct AttachmentID: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case object(ObjectID)
        case noteImage(NoteID)
    }

    let storage: Storage

    /// The attachment object's ID, or `image of note N` for v2's single image, for messages.
    public var description: String {
        switch storage {
        case .object(let id): "\(id)"
        case .noteImage(let note): "image of note \(note)"
        }
    }
}
