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
    @Argument(help: "The note's number.") var id: Int64
    @Flag(help: "Print what was deleted as JSON.") var json = false

    func run() throws {
        let book = try global.openNoteBook()
        let images = try book.delete(NoteID(id))
        if json {
            try printJSON(Report(id: id, deleted: true, images: images))
        } else {
            print(images == 0 ? "deleted note \(id)" : "deleted note \(id) and its \(images.counting("image"))")
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
