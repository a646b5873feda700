import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one note: title, date, body and its images.",
        discussion: """
            Control characters in the title, body and captions are shown visibly (^[ for ESC), \
            never sent to the terminal. From v5 the date line is followed by "modified: DATE", \
            "pinned" (when pinned), "tags: NAME, NAME" (when it has any) and "identifier: UUID".

            Examples:
              uncloudnotes notes show 3
              uncloudnotes notes show 3 --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var format: OutputFormat

    func run() throws {
        let book = try global.openNoteBook()
        let id = try note.id(in: book)
        let snapshot = try book.snapshot(of: id)
        let date = snapshot.dateCreated.map { LocalDates.iso8601($0) }
        let images = snapshot.attachments.map(ImageSummary.init)
        let v5 = snapshot.identifier != nil
        if format.json {
            try printJSON(Report(id: id.number, title: snapshot.title, body: snapshot.body, dateCreated: OrNull(value: date), images: images,
                                 identifier: snapshot.identifier?.uuidString, dateModified: v5 ? OrNull(value: snapshot.dateModified.map { LocalDates.iso8601($0) }) : nil,
                                 pinned: v5 ? snapshot.pinned : nil, tags: v5 ? snapshot.tags : nil))
            return
        }
        try StandardOutput.line(TerminalText.field(snapshot.title))
        try StandardOutput.line(date ?? "-")
        if let identifier = snapshot.identifier {
            try StandardOutput.line("modified: " + (snapshot.dateModified.map { LocalDates.iso8601($0) } ?? "-"))
            if snapshot.pinned { try StandardOutput.line("pinned") }
            if !snapshot.tags.isEmpty { try StandardOutput.line("tags: " + snapshot.tags.map(TerminalText.field).joined(separator: ", ")) }
            try StandardOutput.line("identifier: \(identifier.uuidString)")
        }
        try StandardOutput.line("")
        try StandardOutput.line(TerminalText.visible(snapshot.body))
        for (index, image) in images.enumerated() {
            try StandardOutput.line("image \(index + 1): \(image.line)")
        }
    }
}

/// What `notes show --json` prints; a note without a date has `"dateCreated": null`. From v5
/// also `identifier`, `dateModified`, `pinned` and `tags`.
private struct Report: Encodable {
    let id: Int64
    let title: String
    let body: String
    let dateCreated: OrNull<String>
    let images: [ImageSummary]
    let identifier: String?
    let dateModified: OrNull<String>?
    let pinned: Bool?
    let tags: [String]?
}

/// What `notes show` says about one image: size from the header, bytes, caption (in JSON, the
/// size and caption only when known).
private struct ImageSummary: Encodable {
    let bytes: Int
    let width: Int?
    let height: Int?
    let caption: String?

    init(_ attachment: AttachmentSnapshot) {
        bytes = attachment.imageData?.count ?? 0
        // A header that cannot be read only leaves the size out.
        let size = attachment.imageData.flatMap { try? NoteImage(storedData: $0).pixelSize() }
        width = size?.width
        height = size?.height
        caption = attachment.caption
    }

    var line: String {
        let dimensions = width.flatMap { width in height.map { "\(width)x\($0) px, " } } ?? ""
        let captionText = caption.map { ", caption: \(TerminalText.field($0))" } ?? ""
        return "\(dimensions)\(bytes.counting("byte"))\(captionText)"
    }
}
