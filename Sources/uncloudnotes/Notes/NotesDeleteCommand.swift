import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a note and its images.",
        discussion: """
            Examples:
              uncloudnotes notes delete 3
              uncloudnotes notes delete 3 --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var format: OutputFormat

    func run() throws {
        let book = try global.openNoteBook()
        let id = try note.id(in: book)
        let images = try book.delete(id).imageCount
        if format.json {
            try printJSON(Report(id: id.number, deleted: true, images: images))
        } else {
            try StandardOutput.line(images == 0 ? "deleted note \(id)" : "deleted note \(id) and its \(images.counting("image"))")
        }
    }
}

/// What `notes delete --json` prints.
private struct Report: Encodable {
    let id: Int64
    let deleted: Bool
    /// The images deleted with the note.
    let images: Int
}
