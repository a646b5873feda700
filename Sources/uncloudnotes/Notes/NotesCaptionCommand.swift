import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesCaptionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caption",
        abstract: "Change an image's caption (v4).",
        discussion: """
            Images are numbered as notes show lists them, from 1.

            Examples:
              uncloudnotes notes caption 3 1 "The beach at dawn"
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note's number.") var id: Int64
    @Argument(help: "The image's number within the note, from 1.") var image: Int
    @Argument(help: "The new caption.") var text: String
    @Flag(help: "Print the change as JSON.") var json = false

    func run() throws {
        let book = try global.openNoteBook()
        let attachments = try book.snapshot(of: NoteID(id)).attachments
        guard attachments.indices.contains(image - 1) else {
            throw CommandFailure("note \(id) has no image \(image) (it has \(attachments.count.counting("image")); see uncloudnotes notes show \(id))")
        }
        try book.setCaption(text, of: attachments[image - 1].id)
        if json {
            try printJSON(Report(id: id, image: image, caption: text))
        } else {
            print("captioned image \(image) of note \(id)")
        }
    }
}

/// What `notes caption --json` prints.
private struct Report: Encodable {
    let id: Int64
    let image: Int
    let caption: String
}
