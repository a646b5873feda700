import Foundation
import UnCloudNotesKit
import Yams

/// A note file's text: YAML front matter between `---` lines, then the body exactly as the note
/// holds it (docs/sync.md). Rendering is deterministic, so a note that did not change renders
/// to the same bytes and git sees no change.
public enum MirrorNoteFile {
    static let fence = "---\n"

    /// The file's text for `note`. Text other than ASCII is written as it is (a title in
    /// Chinese reads as Chinese in the file and on a git host's page), not escaped.
    public static func render(_ note: MirrorNote) -> String {
        fence + FrontMatterText.text(FrontMatter(note)) + fence + note.body
    }

    /// Reads a note file; `path` names it in errors and must name the same identifier as the
    /// front matter (a file copied by hand to another name would otherwise be two notes in one).
    public static func parse(_ text: String, path: String) throws(SyncError) -> MirrorNote {
        // A literal search: a body starting with a combining mark must not hide the fence.
        let afterOpening = text.index(text.startIndex, offsetBy: 3, limitedBy: text.endIndex) ?? text.endIndex
        guard text.hasPrefix(fence),
              let end = text.range(of: "\n" + fence, options: .literal, range: afterOpening..<text.endIndex) ?? emptyFrontMatterEnd(text) else {
            throw .unreadableNoteFile(path: path, reason: .noFrontMatter)
        }
        let yaml = String(text[text.index(text.startIndex, offsetBy: 4)..<end.lowerBound])
        let body = String(text[end.upperBound...])
        let matter: FrontMatter
        do {
            matter = try YAMLDecoder().decode(FrontMatter.self, from: yaml)
        } catch {
            throw .unreadableNoteFile(path: path, reason: .frontMatter(error))
        }
        return try matter.note(body: body, path: path)
    }

    /// `---\n---\n`: front matter with nothing in it (refused later for its missing identifier).
    private static func emptyFrontMatterEnd(_ text: String) -> Range<String.Index>? {
        text.hasPrefix(fence + fence) ? text.range(of: fence, options: .literal, range: text.index(text.startIndex, offsetBy: 4)..<text.endIndex) : nil
    }
}

/// The front matter's fields, in the order they are written.
struct FrontMatter: Codable {
    struct Image: Codable {
        var identifier: String
        var file: String
        var created: String?
        var caption: String?
        var width: Double?
        var height: Double?
    }

    var identifier: String
    var title: String
    var created: String?
    var modified: String?
    var pinned: Bool?
    var tags: [String]?
    var images: [Image]?

    init(_ note: MirrorNote) {
        identifier = note.identifier.uuidString.lowercased()
        title = note.title
        created = note.created.map(MirrorDates.text)
        modified = note.modified.map(MirrorDates.text)
        pinned = note.pinned
        tags = note.tags
        images = note.images.map {
            Image(identifier: $0.identifier.uuidString.lowercased(), file: $0.file, created: $0.created.map(MirrorDates.text), caption: $0.caption,
                  width: $0.width, height: $0.height)
        }
    }

    func note(body: String, path: String) throws(SyncError) -> MirrorNote {
        guard let id = UUID(uuidString: identifier) else { throw .unreadableNoteFile(path: path, reason: .identifierNotAUUID(identifier)) }
        guard MirrorNote.path(of: id) == path else {
            throw .unreadableNoteFile(path: path, reason: .identifierNamesAnotherFile(identifier: identifier, file: MirrorNote.path(of: id)))
        }
        func date(_ text: String?, _ field: String) throws(SyncError) -> Date? {
            guard let text else { return nil }
            guard let date = MirrorDates.date(text) else { throw .unreadableNoteFile(path: path, reason: .notADate(field: field, text: text)) }
            return date
        }
        var pictures: [MirrorImage] = []
        for image in images ?? [] {
            guard let imageID = UUID(uuidString: image.identifier) else {
                throw .unreadableNoteFile(path: path, reason: .imageIdentifierNotAUUID(image.identifier))
            }
            guard MirrorImageFile.isImagePath(image.file) else {
                throw .unreadableNoteFile(path: path, reason: .imageFileNotInImages(image.file))
            }
            pictures.append(MirrorImage(identifier: imageID, file: image.file, created: try date(image.created, "image created"),
                                        caption: image.caption ?? "", width: image.width ?? 0, height: image.height ?? 0))
        }
        // Tags follow the app's rule (a hand edit could write any text): a bad one stops the sync.
        let names: [String]
        do {
            names = try TagName.checked(tags ?? [])
        } catch {
            throw .unreadableNoteFile(path: path, reason: .badTag(error))
        }
        return MirrorNote(identifier: id, title: title, created: try date(created, "created"), modified: try date(modified, "modified"),
                          pinned: pinned ?? false, tags: names, images: pictures, body: body)
    }
}

/// Dates in front matter: ISO 8601 in UTC with milliseconds (`2026-11-25T19:20:53.123Z`). The
/// store keeps finer times; a note applied from a file keeps the file's millisecond, and renders
/// back to the same text. Written and read by hand (`timegm`, `gmtime_r`) so that the same text
/// is always the same date, on every thread.
enum MirrorDates {
    static func text(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        var fraction = milliseconds % 1000
        if fraction < 0 {
            fraction += 1000
            seconds -= 1
        }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // By hand: String(format:) was a tenth of a first export's time.
        func digits(_ value: Int, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2) + "T"
            + digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2) + ":" + digits(Int(parts.tm_sec), 2) + "." + digits(Int(fraction), 3) + "Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`; nil for anything else.
    static func date(_ text: String) -> Date? {
        let fields = text.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int($0) }
        guard text.hasSuffix("Z"), fields.count == 6 || fields.count == 7, fields.allSatisfy({ $0 != nil }) else { return nil }
        let numbers = fields.map { $0 ?? 0 }
        var parts = tm()
        parts.tm_year = Int32(numbers[0] - 1900)
        parts.tm_mon = Int32(numbers[1] - 1)
        parts.tm_mday = Int32(numbers[2])
        parts.tm_hour = Int32(numbers[3])
        parts.tm_min = Int32(numbers[4])
        parts.tm_sec = Int32(numbers[5])
        // A fraction of any length: ".5" is 500 ms; digits past the millisecond are dropped.
        let fraction = text.split(separator: ".").dropFirst().first.map { String($0.dropLast().prefix(3)) } ?? ""
        let milliseconds = Int(fraction.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0
        guard (1...12).contains(numbers[1]), (1...31).contains(numbers[2]), numbers[3] < 24, numbers[4] < 60, numbers[5] < 61,
              milliseconds < 1000 else { return nil }
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(Int64(seconds) * 1000 + Int64(milliseconds)) / 1000)
    }

    /// `date` as a file can say it (to the millisecond), so comparing a store note with its
    /// file does not see a change the file cannot hold.
    static func rounded(_ date: Date?) -> Date? {
        date.flatMap { Self.date(text($0)) }
    }
}
