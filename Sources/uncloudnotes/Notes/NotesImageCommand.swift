import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Write an image of a note out, as it was attached (its own bytes and format).",
        discussion: """
            Images are numbered as notes show lists them, from 1. Without --output the bytes go \
            to standard output, which must be a pipe or a file, never the terminal.

            Examples:
              uncloudnotes notes image 3 1 --output beach.jpg
              uncloudnotes notes image 3 1 | kitty icat
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @Argument(help: "The image's number within the note, from 1.", transform: WholeNumber.counted) var image: Int
    @Option(name: .long, help: ArgumentHelp("Write the image to this file (created 0600, replaced whole) instead of standard output; - is standard output.",
                                            valueName: "file"))
    var output: String?

    /// The file to write, nil for standard output (`-`, as `notes import -` reads standard input).
    private var file: String? { output == "-" ? nil : output }

    func run() throws {
        if file == nil, isatty(STDOUT_FILENO) == 1 {
            throw CommandFailure("an image is binary data, not for the terminal: give --output FILE, or pipe it (uncloudnotes notes image \(note.reference) \(image) | kitty icat)")
        }
        let book = try global.openNoteBook()
        let id = try note.id(in: book)
        let attachment = try book.attachment(image, of: id)
        guard let data = attachment.imageData else {
            throw CommandFailure("image \(image) of note \(id) has no data")
        }
        guard let file else { return try data.withUnsafeBytes { try StandardOutput.write($0) } }
        try PrivateFiles.replace(fileURL(file), with: data)
    }
}

extension NoteBook {
    /// The note's image numbered `number` from 1, as `notes show` lists them; a missing one is
    /// an error that says how many the note has.
    func attachment(_ number: Int, of note: NoteID) throws -> AttachmentSnapshot {
        let attachments = try snapshot(of: note).attachments
        guard attachments.indices.contains(number - 1) else {
            throw CommandFailure("note \(note) has no image \(number) (it has \(attachments.count.counting("image")); see uncloudnotes notes show \(note))")
        }
        return attachments[number - 1]
    }
}
