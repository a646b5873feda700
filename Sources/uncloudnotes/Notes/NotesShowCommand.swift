import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one note: title, date, body and its images.",
        discussion: """
            Control characters in the title, body and captions are shown visibly (^[ for ESC), \
            never sent to the terminal.

            Examples:
              uncloudnotes notes show 3
              uncloudnotes notes show 3 --json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note's number, as notes list shows it.") var id: Int64
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let book = try global.openNoteBook()
        let snapshot = try book.snapshot(of: NoteID(id))
        let date = snapshot.dateCreated.map { $0.formatted(.iso8601) }
        let images = snapshot.attachments.map(ImageSummary.init)
        if json {
            try printJSON(["id": id, "title": snapshot.title, "body": snapshot.body, "dateCreated": date ?? NSNull(),
                           "images": images.map(\.json)])
            return
        }
        print(TerminalText.field(snapshot.title))
        print(date ?? "-")
        print("")
        print(TerminalText.visible(snapshot.body))
        for (index, image) in images.enumerated() {
            print("image \(index + 1): \(image.line)")
        }
    }
}

/// What `notes show` says about one image: size from the header, bytes, caption.
private struct ImageSummary {
    let bytes: Int
    let size: (width: Int, height: Int)?
    let caption: String?

    init(_ attachment: AttachmentSnapshot) {
        bytes = attachment.imageData?.count ?? 0
        // A header that cannot be read only leaves the size out.
        size = attachment.imageData.flatMap { try? NoteImage(storedData: $0).pixelSize() }
        caption = attachment.caption
    }

    var json: [String: Any] {
        var item: [String: Any] = ["bytes": bytes]
        if let size { item["width"] = size.width; item["height"] = size.height }
        if let caption { item["caption"] = caption }
        return item
    }

    var line: String {
        let dimensions = size.map { "\($0.width)x\($0.height) px, " } ?? ""
        let captionText = caption.map { ", caption: \(TerminalText.field($0))" } ?? ""
        return "\(dimensions)\(bytes.counting("byte"))\(captionText)"
    }
}
