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
    public var format = "uncloudnotes-notes"
    /// The layout's version, so a later layout can still read this one: 2 adds identifiers, tags,
    /// pins and modified dates (all optional, so format 1 reads as 2).
    public var formatVersion = 2
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

    /// Reads and checks an export: its format, and every image as `notes attach` checks it
    /// (format and pixel limit from the header, then a decode).
    public static func read(_ data: Data, source: String) throws(NotesArchiveError) -> NotesArchive {
        let archive: NotesArchive
        do {
            archive = try decoder().decode(NotesArchive.self, from: data)
        } catch {
            throw .notAnExport(source: source, reason: Self.describe(error))
        }
        guard archive.format == "uncloudnotes-notes" else { throw .notAnExport(source: source, reason: "format \"\(archive.format)\"") }
        guard archive.formatVersion <= 2 else { throw .newerFormat(source: source, formatVersion: archive.formatVersion) }
        for (index, note) in archive.notes.enumerated() {
            guard NoteDraft(title: note.title, body: note.body).hasTitle else { throw .emptyTitle(source: source, note: index + 1) }
            do {
                _ = try TagName.checked(note.tags ?? [])
            } catch {
                throw .badTag(source: source, note: index + 1, underlying: error)
            }
            for (imageIndex, image) in note.images.enumerated() {
                do {
                    _ = try NoteImage(validating: image.data)
                } catch {
                    throw .imageRefused(source: source, note: index + 1, title: note.title, image: imageIndex + 1, underlying: error)
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

extension NoteBook {
    /// Adds the notes of an archive in one save: all of them, or none on error. A note with an
    /// identifier (v5) merges by it: one the store holds is left as it is when equal or older,
    /// and updated when the file's was modified later; others are added with their identifiers.
    /// Notes without one that the book already holds (the same title, body, creation date and
    /// images: `ImportMatch`) are skipped. So importing a file twice changes nothing the second
    /// time, unless `copyingNotesAlreadyHere`, which adds every note anew with new identifiers.
    public func importArchive(_ archive: NotesArchive, copyingNotesAlreadyHere: Bool = false) throws -> ImportOutcome {
        for note in archive.notes {
            do {
                try capabilities.checkAttaching(note.images.count, toNoteWith: 0, of: nil, replacing: false)
            } catch {
                throw NotesArchiveError.tooManyImages(title: note.title, count: note.images.count, underlying: error)
            }
        }
        let byIdentifier = capabilities.hasIdentifiers && !copyingNotesAlreadyHere
        let stored = byIdentifier ? try notes(withIdentifiers: Set(archive.notes.compactMap(\.identifier))) : [:]
        let merged = archive.notes.map { note in note.identifier.flatMap { stored[$0] } }
        let unidentified = archive.notes.enumerated().filter { merged[$0.offset] == nil && !(byIdentifier && $0.element.identifier != nil) }
        let alreadyHere = copyingNotesAlreadyHere ? unidentified.map { _ in false } : try notesAlreadyHere(unidentified.map(\.element))
        let skippedByMatch = Set(zip(unidentified, alreadyHere).filter(\.1).map(\.0.offset))
        var index = try nextDisplayIndex()
        var added = 0, updated = 0, skipped = skippedByMatch.count
        try changing {
            // Every tag read once: looking each up among the pending inserts grew with the import.
            var tags = try tagsByName()
            for (offset, note) in archive.notes.enumerated() where !skippedByMatch.contains(offset) {
                if let stored = merged[offset] {
                    if try updateIfNewer(stored, to: note) { updated += 1 } else { skipped += 1 }
                    continue
                }
                try insert(note, displayIndex: index, keepingIdentifiers: !copyingNotesAlreadyHere, tags: &tags)
                index = try displayIndex(after: index)
                added += 1
            }
        }
        return ImportOutcome(imported: added, updated: updated, skipped: skipped)
    }

    /// Adds one note of an archive, with its identifiers when kept (v5).
    private func insert(_ note: NotesArchive.Note, displayIndex: Int64, keepingIdentifiers: Bool, tags: inout [String: ManagedObject]) throws {
        let draft = try NoteDraft(title: note.title, body: note.body).checked()
        let date = note.dateCreated ?? NoteClock.now()
        let object = try insertNote(draft, date: date, displayIndex: displayIndex, identifier: keepingIdentifiers ? note.identifier : nil)
        if capabilities.recordsModification, let modified = note.dateModified { object.setValue(.date(modified), forKey: "dateModified") }
        if capabilities.hasPins { object.setValue(.bool(note.pinned ?? false), forKey: "pinned") }
        if capabilities.hasTags {
            for name in try TagName.checked(note.tags ?? []) {
                let tag = try tags[name] ?? tagObject(named: name)
                tags[name] = tag
                object.addObject(tag, forKey: "tags")
            }
        }
        for (offset, image) in note.images.enumerated() {
            try attach(NoteImage(storedData: image.data), to: object, date: image.dateCreated ?? date.addingTimeInterval(Double(offset) / 1000),
                       caption: image.caption ?? Self.newImageCaption, identifier: keepingIdentifiers ? image.identifier : nil)
        }
    }

    /// The book's notes with these identifiers, found in one read of every note's identifier
    /// (a fetch per note grew with both the file and the store).
    private func notes(withIdentifiers identifiers: Set<UUID>) throws -> [UUID: ManagedObject] {
        guard !identifiers.isEmpty else { return [:] }
        var read = RowProperties()
        let identifier = read.add(.attribute("identifier")) { $0?.uuidValue }
        var keys: [UUID: Int64] = [:]
        try context.forEachRow(of: PropertyFetchRequest(entityName: Self.noteEntity, properties: read.properties)) { row in
            if let id = identifier.value(in: row), identifiers.contains(id) { keys[id] = row.primaryKey }
        }
        return try keys.compactMapValues { key in try context.existingObject(with: ObjectID(entityName: Self.noteEntity, primaryKey: key)) }
    }

    /// Every tag of the book by name.
    private func tagsByName() throws -> [String: ManagedObject] {
        var tags: [String: ManagedObject] = [:]
        guard capabilities.hasTags else { return tags }
        for tag in try context.fetch(FetchRequest(entityName: Self.tagEntity)) {
            if let name = tag.value(forKey: "name")?.stringValue { tags[name] = tag }
        }
        return tags
    }

    /// Changes a stored note to the file's version when that was modified later: text, dates,
    /// pin and tags, and the images the note lacks (by identifier). Returns whether it changed.
    private func updateIfNewer(_ stored: ManagedObject, to note: NotesArchive.Note) throws -> Bool {
        let storedModified = stored.value(forKey: "dateModified")?.dateValue ?? .distantPast
        guard let modified = note.dateModified, modified.timeIntervalSince(storedModified) >= 1 else { return false }
        let draft = try NoteDraft(title: note.title, body: note.body, tags: note.tags ?? []).checked()
        stored.setValue(.string(draft.title), forKey: "title")
        stored.setValue(.string(draft.body), forKey: "body")
        if let created = note.dateCreated { stored.setValue(.date(created), forKey: "dateCreated") }
        stored.setValue(.bool(note.pinned ?? false), forKey: "pinned")
        try replaceTags(of: stored, with: draft.tags ?? [])
        let present = Set(stored.objects(forKey: "attachments").compactMap { $0.value(forKey: "identifier")?.uuidValue })
        for image in note.images where image.identifier.map({ !present.contains($0) }) ?? true {
            try attach(NoteImage(storedData: image.data), to: stored, date: image.dateCreated ?? modified, caption: image.caption ?? Self.newImageCaption,
                       identifier: image.identifier)
        }
        stored.setValue(.date(modified), forKey: "dateModified")
        return true
    }
}
