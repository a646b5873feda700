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
    @OptionGroup var note: NoteArgument
    @Argument(help: "The image's number within the note, from 1.", transform: WholeNumber.counted) var image: Int
    @Argument(help: "The new caption.") var text: String
    @OptionGroup var format: OutputFormat

    func run() throws {
        let book = try global.openNoteBook()
        let id = try note.id(in: book)
        try book.setCaption(text, of: book.attachment(image, of: id).id)
        if format.json {
            try printJSON(Report(id: id.number, image: image, caption: text))
        } else {
            try StandardOutput.line("captioned image \(image) of note \(id)")
        }
    }
}

/// What `notes caption --json` prints.
private struct Report: Encodable {
    let id: Int64
    let image: Int
    let caption: String
}
