import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesAttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach images to a note (from v2 on; several from v3 on).",
        discussion: """
            Accepted formats: \(ImageHeader.Format.allCases.map(\.displayName).joined(separator: ", ")), \
            those gdk-pixbuf can decode on this machine (listed under --image), up to \
            \(ImageFormats.maxPixelCount / 1_000_000) megapixels each. Each file is checked \
            before anything is stored. In v2 a note holds one image: attaching onto a note that \
            has one is refused unless --replace. In v4 each new image gets a caption:             --caption, or "\(NoteBook.newImageCaption)" as the chapter's app gave it.

            Examples:
              uncloudnotes notes attach 3 --image ~/Pictures/cat.png
              uncloudnotes notes attach 3 --image beach.jpg --caption "At the beach"
              uncloudnotes notes attach 3 --image a.jpg --image b.png
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @Option(name: .customLong("image"), help: ArgumentHelp("An image file (\(ImageFormats.supportedList)); repeat for several.", valueName: "path"))
    var images: [String]
    @Option(help: ArgumentHelp("v4: the new images' caption. Default: \"\(NoteBook.newImageCaption)\".", valueName: "text"))
    var caption: String?
    @Flag(help: "v2: replace the note's image (refused otherwise).") var replace = false
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if images.isEmpty { throw ValidationError("give at least one --image") }
    }

    func run() throws {
        let pictures = try loadImages(images)
        let book = try global.openNoteBook()
        let id = try note.id(in: book)
        // A caption typed for a version without captions would be dropped: refused instead.
        if caption != nil, !book.capabilities.hasCaptions { throw NoteBookError.noCaptionsInThisVersion(version: book.capabilities.version) }
        let count = try book.attach(pictures, to: id, caption: caption ?? NoteBook.newImageCaption, replacing: replace)
        if format.json {
            try printJSON(Report(id: id.number, attached: pictures.count, images: count))
        } else {
            try StandardOutput.line("attached \(pictures.count.counting("image")) to note \(id)")
        }
    }
}

/// What `notes attach --json` prints.
private struct Report: Encodable {
    let id: Int64
    let attached: Int
    /// The note's images now.
    let images: Int
}
