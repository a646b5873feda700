import Foundation
import ManagedStore

/// The JSON that `notes export` writes and `notes import` reads: every note with its images
/// embedded (base64), independent of the model version that wrote it.
public struct NotesArchive: Codable, Equatable, Sendable {
    public struct Note: Codable, Equatable, Sendable {
        public var title: String
        public var body: String
        public var dateCreated: Date?
        public var images: [Image]
    }

    public struct Image: Codable, Equatable, Sendable {
        public var data: Data
        public var format: String?
        public var caption: String?
        public var width: Int?
        public var height: Int?
        public var dateCreated: Date?
    }

    /// Identifies the file, so a wrong JSON file is refused clearly.
    public var format = "uncloudnotes-notes"
    public var formatVersion = 1
    public var modelVersion: String
    public var notes: [Note]

    /// Every note of the book, oldest first.
    public init(book: NoteBook) throws {
        modelVersion = book.context.model.name
        notes = try book.context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [SortDescriptor("dateCreated"), SortDescriptor("displayIndex")]))
            .map { object in
                let snapshot = book.snapshot(of: object)
                return Note(title: snapshot.title, body: snapshot.body, dateCreated: snapshot.dateCreated,
                            images: snapshot.attachments.compactMap { attachment in
                                guard let data = attachment.imageData else { return nil }
                                let image = NoteImage(storedData: data)
                                let size = try? image.pixelSize()
                                return Image(data: data, format: image.formatName, caption: attachment.caption,
                                             width: size?.width, height: size?.height, dateCreated: attachment.dateCreated)
                            })
            }
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }

    /// Reads and checks an export: its format, and every image as `notes attach` checks it
    /// (format and pixel limit from the header, then a decode).
    public static func read(_ data: Data, source: String) throws -> NotesArchive {
        let archive: NotesArchive
        do {
            archive = try decoder().decode(NotesArchive.self, from: data)
        } catch {
            throw NoteBookError("\(source): not an UnCloudNotes export (\(Self.describe(error)))")
        }
        guard archive.format == "uncloudnotes-notes" else { throw NoteBookError("\(source): not an UnCloudNotes export (format \"\(archive.format)\")") }
        guard archive.formatVersion <= 1 else { throw NoteBookError("\(source): written by a newer UnCloudNotes (export format \(archive.formatVersion))") }
        for (index, note) in archive.notes.enumerated() {
            guard !note.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw NoteBookError("\(source): note \(index + 1) has an empty title")
            }
            for (imageIndex, image) in note.images.enumerated() {
                do {
                    _ = try NoteImage(validating: image.data)
                } catch {
                    throw NoteBookError("\(source): image \(imageIndex + 1) of note \(index + 1) (“\(note.title)”) is refused: \(error); nothing was imported")
                }
            }
        }
        return archive
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context): return "\(context.codingPath.map(\.stringValue).joined(separator: ".")): wrong type"
        default: return "\(error)"
        }
    }
}

extension NoteBook {
    /// Adds every note of an archive in one save: all of them, or none on error.
    /// - Returns: how many notes were added.
    @discardableResult
    public func importArchive(_ archive: NotesArchive) throws -> Int {
        if let limit = capabilities.maxImagesPerNote, let note = archive.notes.first(where: { $0.images.count > limit }) {
            throw NoteBookError("“\(note.title)” has \(note.images.count) images, but notes of this model version hold \(limit == 0 ? "none (run as v2 or later)" : "one (run as v3 or later)"); nothing was imported")
        }
        var index = try nextDisplayIndex()
        for note in archive.notes {
            let object = try context.insertObject(entityName: "Note")
            object.setValue(.string(note.title), forKey: "title")
            object.setValue(.string(note.body), forKey: "body")
            object.setValue(.date(note.dateCreated ?? Date()), forKey: "dateCreated")
            object.setValue(.integer(index), forKey: "displayIndex")
            index = try displayIndex(after: index)
            for (offset, image) in note.images.enumerated() {
                try attach(NoteImage(storedData: image.data), to: object,
                           date: image.dateCreated ?? (note.dateCreated ?? Date()).addingTimeInterval(Double(offset) / 1000),
                           caption: image.caption)
            }
        }
        try saveOrRollBack()
        return archive.notes.count
    }
}
