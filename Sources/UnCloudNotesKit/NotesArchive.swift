import Foundation
import ManagedStore

/// The JSON that `notes export` writes and `notes import` reads: every note with its images
/// embedded (base64), independent of the model version that wrote it.
public struct NotesArchive: Codable, Equatable, Sendable {
    /// One note, independent of the version that wrote it.
    public struct Note: Codable, Equatable, Sendable {
        /// The note's title.
        public var title: String
        /// The note's body.
        public var body: String
        /// When the note was made, kept across an export and import.
        public var dateCreated: Date?
        /// The note's images, oldest first.
        public var images: [Image]
        /// v5 (format 2): the note's identity, which import merges by.
        public var identifier: UUID?
        public var dateModified: Date?
        public var pinned: Bool?
        public var tags: [String]?
    }

    /// One image of a note, its bytes embedded.
    public struct Image: Codable, Equatable, Sendable {
        /// v5 (format 2).
        public var identifier: UUID?
        /// The encoded image, exactly as stored (base64 in the JSON).
        public var data: Data
        /// The format's short name (`png`, `jpeg`), for readers of the JSON.
        public var format: String?
        /// The caption (v4 on); nil where the version has none.
        public var caption: String?
        /// The width in pixels, from the image's header.
        public var width: Int?
        /// The height in pixels, from the image's header.
        public var height: Int?
        /// When the image was attached; nil for v2's image.
        public var dateCreated: Date?
    }

    /// Identifies the file, so a wrong JSON file is refused clearly.
    public var format = NotesArchive.formatName
    /// The layout's version, so a later layout can still read this one: 2 adds identifiers, tags,
    /// pins and modified dates (all optional, so format 1 reads as 2).
    public var formatVersion = NotesArchive.newestFormatVersion
    /// The model version of the book that was exported (`v4`), for information.
    public var modelVersion: String
    /// Every note, oldest first.
    public var notes: [Note]
}

extension NotesArchive {
    /// Every note of the book, oldest first.
    public init(book: NoteBook) throws {
        modelVersion = book.context.model.name
        notes = try Self.numberedNotes(of: book).map(\.note)
    }

    /// Every note of the book, oldest first, with its number in the book (which the Markdown
    /// export names image files by; the JSON leaves it out, as import numbers notes anew).
    static func numberedNotes(of book: NoteBook) throws -> [(id: NoteID, note: Note)] {
        try book.context.fetch(FetchRequest(entityName: NoteBook.noteEntity,
                                            sortDescriptors: [SortDescriptor("dateCreated"), SortDescriptor("displayIndex")]))
            .map { object in
                let snapshot = try book.snapshot(of: object)
                return (snapshot.id, Note(snapshot))
            }
    }

    /// The decoder for export files: dates as the ISO 8601 text `jsonData()` writes, a bad one named by its path.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = LocalDates.parseISO8601(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(decoder.codingPath.map(\.stringValue).joined(separator: ".")): not an ISO 8601 date: \(text)")
            }
            return date
        }
        return decoder
    }

    /// Pretty, key-sorted JSON, so the same notes always give the same file.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(LocalDates.exactISO8601(date))
        }
        return try encoder.encode(self)
    }

    /// The `format` every export names.
    static let formatName = "uncloudnotes-notes"
    /// The newest `formatVersion` this program reads.
    static let newestFormatVersion = 2

    /// Reads and checks a whole export held in memory, as `NotesArchiveReader` checks each note
    /// of a file it streams.
    public static func read(_ data: Data, source: String) throws(NotesArchiveError) -> NotesArchive {
        var reader = NotesArchiveReader(source: source, nextChunk: Self.once([UInt8](data)))
        var notes: [Note] = []
        while let note = try reader.nextNote() { notes.append(note) }
        // A reader that returned nil has read all three header members.
        return NotesArchive(formatVersion: reader.formatVersion ?? newestFormatVersion, modelVersion: reader.modelVersion ?? "", notes: notes)
    }

    /// A chunk source that gives `bytes`, then the end.
    private static func once(_ bytes: [UInt8]) -> () -> [UInt8]? {
        var rest: [UInt8]? = bytes
        return {
            defer { rest = nil }
            return rest
        }
    }

    /// A decoding error as the reason of `notAnExport`.
    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context): return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): wrong type"
        default: return "\(error)"
        }
    }
}

extension NotesArchive.Note {
    /// A note as the book holds it. An image whose header cannot be read is still exported,
    /// its bytes as stored, without a size: the export must keep every note.
    init(_ snapshot: NoteSnapshot) {
        title = snapshot.title
        body = snapshot.body
        dateCreated = snapshot.dateCreated
        identifier = snapshot.identifier
        dateModified = snapshot.dateModified
        // Only versions that have them write pins and tags.
        pinned = snapshot.identifier == nil ? nil : snapshot.pinned
        tags = snapshot.identifier == nil ? nil : snapshot.tags
        images = snapshot.attachments.compactMap { attachment in
            guard let data = attachment.imageData else { return nil }
            let image = NoteImage(storedData: data)
            // An image whose header does not read is exported without its size (the bytes are kept whole).
            let size = try? image.pixelSize()
            return NotesArchive.Image(identifier: attachment.identifier, data: data, format: image.formatName, caption: attachment.caption,
                                      width: size?.width, height: size?.height, dateCreated: attachment.dateCreated)
        }
    }
}

/// An export file `notes import` refuses; nothing was imported.
public enum NotesArchiveError: Error, CustomStringConvertible {
    /// The file is not an export this program wrote (not JSON, or another format).
    case notAnExport(source: String, reason: String)
    /// The export was written by a newer version of the program.
    case newerFormat(source: String, formatVersion: Int)
    /// A note of the export has no title.
    case emptyTitle(source: String, note: Int)
    /// A tag name of a note is not one the app accepts.
    case badTag(source: String, note: Int, underlying: NoteBookError)
    /// An image of a note is not one `notes attach` would accept.
    case imageRefused(source: String, note: Int, title: String, image: Int, underlying: any Error)
    /// A note holds more images than the version the app runs as allows.
    case tooManyImages(title: String, count: Int, underlying: NoteBookError)
    /// The file could not be read to its end.
    case unreadable(cause: any Error)

    /// One line naming the file and what is wrong with it.
    public var description: String {
        switch self {
        case .notAnExport(let source, let reason): "\(source): not an UnCloudNotes export (\(reason))"
        case .newerFormat(let source, let version): "\(source): written by a newer UnCloudNotes (export format \(version))"
        case .emptyTitle(let source, let note): "\(source): note \(note) has an empty title"
        case .badTag(let source, let note, let underlying): "\(source): note \(note): \(underlying); nothing was imported"
        case .imageRefused(let source, let note, let title, let image, let underlying):
            "\(source): image \(image) of note \(note) (“\(title)”) is refused: \(underlying); nothing was imported"
        case .tooManyImages(let title, let count, let underlying):
            "“\(title)” has \(count.counting("image")): \(underlying); nothing was imported"
        case .unreadable(let cause): "\(cause); nothing was imported"
        }
    }
}

/// What an import did.
public struct ImportOutcome: Equatable, Sendable {
    /// Notes added.
    public let imported: Int
    /// Notes of the store the file holds a newer version of (same identifier, later modified
    /// date), changed to it.
    public var updated = 0
    /// Notes of the file left out because the store already held them (or a newer version).
    public let skipped: Int

    /// Whether the import changed nothing.
    public var changedNothing: Bool { imported == 0 && updated == 0 }
}
