import Foundation
import UnCloudNotesKit

/// One note as the mirror holds it, `notes/<identifier>.md`: what sync carries between machines.
/// A value, so the store side, the file side and the merge all speak the same thing.
public struct MirrorNote: Equatable, Sendable {
    /// The note's stable identifier (v5's `identifier`), which names its file.
    public var identifier: UUID
    public var title: String
    public var created: Date?
    public var modified: Date?
    public var pinned: Bool
    /// Tag names, sorted and without repeats, so equal sets are equal files.
    public var tags: [String]
    /// The note's images, oldest first.
    public var images: [MirrorImage]
    /// The body, byte for byte after the front matter.
    public var body: String

    public init(identifier: UUID, title: String, created: Date?, modified: Date?, pinned: Bool, tags: [String],
                images: [MirrorImage], body: String) {
        self.identifier = identifier
        self.title = title
        self.created = created
        self.modified = modified
        self.pinned = pinned
        self.tags = Array(Set(tags)).sorted()
        self.images = images
        self.body = body
    }

    /// The note's path in the mirror.
    public var path: String { Self.path(of: identifier) }

    public static func path(of identifier: UUID) -> String { "notes/\(identifier.uuidString.lowercased()).md" }

    /// What a file under `notes/` must be named, said when one is not.
    static let namingRule = "a note file is named notes/<identifier>.md, after its note's identifier; rename or move it"

    /// The identifier a note path names; nil for any other path.
    public static func identifier(inPath path: String) -> UUID? {
        guard path.hasPrefix("notes/"), path.hasSuffix(".md") else { return nil }
        return UUID(uuidString: String(path.dropFirst("notes/".count).dropLast(".md".count)))
    }
}

/// One image of a note as its file lists it: the app's image of a whole note.
public typealias MirrorImage = WholeNote.Image
