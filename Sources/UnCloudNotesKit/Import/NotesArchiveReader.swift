import Foundation

/// An export read one note at a time (`JSONObjectStream`), each decoded and checked as it comes,
/// so `notes import` holds one note of the file in memory, not the file. The checks are those of
/// a whole read: the format, then per note its title, tags and every image as `notes attach`
/// checks it (format and pixel limit from the header, then a decode). A header member that comes
/// after the notes (the export writes it first) is checked when it comes.
public struct NotesArchiveReader {
    private let source: String
    private var stream: JSONObjectStream
    private let decoder = NotesArchive.decoder()
    private var format: String?
    /// The export's layout version, once read.
    public private(set) var formatVersion: Int?
    /// The model version the export names, once read.
    public private(set) var modelVersion: String?
    private var sawNotes = false
    private var count = 0

    /// - Parameter source: the file's name in errors (`standard input` for `-`).
    /// - Parameter nextChunk: the file's next bytes, nil at its end.
    public init(source: String, nextChunk: @escaping () throws -> [UInt8]?) {
        self.source = source
        stream = JSONObjectStream(streaming: ["notes"], nextChunk: nextChunk)
    }

    /// The next note, checked; nil after the last, once the whole file and its header were read
    /// and found right.
    public mutating func nextNote() throws(NotesArchiveError) -> NotesArchive.Note? {
        while true {
            let item: JSONObjectStream.Item?
            do {
                item = try stream.next()
            } catch {
                if case .input(let cause) = error { throw .unreadable(cause: cause) }
                throw .notAnExport(source: source, reason: error.description)
            }
            switch item {
            case .element(_, let value)?:
                count += 1
                return try checked(decode(NotesArchive.Note.self, from: value, what: "note \(count)"), number: count)
            case .arrayStart?:
                sawNotes = true
            case .member(let key, let value)?:
                try readHeader(key, value)
            case nil:
                try checkHeaderIsWhole()
                return nil
            }
        }
    }

    private mutating func readHeader(_ key: String, _ value: [UInt8]) throws(NotesArchiveError) {
        switch key {
        case "format":
            let format = try decode(String.self, from: value, what: key)
            guard format == NotesArchive.formatName else { throw .notAnExport(source: source, reason: "format \"\(format)\"") }
            self.format = format
        case "formatVersion":
            let version = try decode(Int.self, from: value, what: key)
            guard version <= NotesArchive.newestFormatVersion else { throw .newerFormat(source: source, formatVersion: version) }
            formatVersion = version
        case "modelVersion":
            modelVersion = try decode(String.self, from: value, what: key)
        case "notes":
            // The stream hands out an array's elements; a whole member is not an array.
            throw .notAnExport(source: source, reason: "notes: wrong type")
        default:
            // Unknown members are left alone, as decoding the whole file did.
            return
        }
    }

    private func checkHeaderIsWhole() throws(NotesArchiveError) {
        for (key, seen) in [("format", format != nil), ("formatVersion", formatVersion != nil), ("modelVersion", modelVersion != nil)]
            where !seen {
            throw .notAnExport(source: source, reason: "no \"\(key)\"")
        }
        guard sawNotes else { throw .notAnExport(source: source, reason: "no \"notes\"") }
    }

    private func decode<Value: Decodable>(_ type: Value.Type, from value: [UInt8], what: String) throws(NotesArchiveError) -> Value {
        do {
            return try decoder.decode(type, from: Data(value))
        } catch {
            throw .notAnExport(source: source, reason: "\(what): \(NotesArchive.describe(error))")
        }
    }

    /// The note, once its title, tags and images are found acceptable.
    private func checked(_ note: NotesArchive.Note, number: Int) throws(NotesArchiveError) -> NotesArchive.Note {
        guard NoteDraft(title: note.title, body: note.body).hasTitle else { throw .emptyTitle(source: source, note: number) }
        do {
            _ = try TagName.checked(note.tags ?? [])
        } catch {
            throw .badTag(source: source, note: number, underlying: error)
        }
        for (imageIndex, image) in note.images.enumerated() {
            do {
                _ = try NoteImage(validating: image.data)
            } catch {
                throw .imageRefused(source: source, note: number, title: note.title, image: imageIndex + 1, underlying: error)
            }
        }
        return note
    }
}
