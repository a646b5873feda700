import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export every note: JSON (images embedded) or Markdown (images as files beside it).",
        discussion: """
            Files are created readable by you alone (0600, folders 0700). Markdown lists notes \
            newest first, as notes list does; JSON keeps them oldest first, the order import adds them.

            Examples:
              uncloudnotes notes export > notes.json
              uncloudnotes notes export --output notes.json
              uncloudnotes notes export --markdown ~/notes-export
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Write Markdown into this folder (notes.md and images/) instead of JSON.", valueName: "folder"))
    var markdown: String?
    @Option(help: ArgumentHelp("Write the JSON to this file instead of standard output.", valueName: "file"))
    var output: String?
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if markdown != nil, output != nil {
            throw ValidationError("--markdown writes into its folder and --output names a JSON file: give one of them")
        }
    }

    func run() throws {
        let book = try global.openNoteBook()
        let written: URL
        let count: Int
        if let markdown {
            let folder = fileURL(markdown)
            count = try MarkdownExport.write(book, to: folder)
            written = folder.appendingPathComponent("notes.md")
        } else {
            let archive = try NotesArchive(book: book)
            count = archive.notes.count
            guard let output else {
                try StandardOutput.line(String(decoding: try archive.jsonData(), as: UTF8.self))
                return
            }
            written = fileURL(output)
            // Whole or not at all: a failed export leaves the file of an earlier one as it was.
            try PrivateFiles.replace(written, with: try archive.jsonData())
        }
        if format.json {
            try printJSON(Report(notes: count, path: written.path))
        } else {
            try StandardOutput.line("wrote \(count.counting("note")) to \(TerminalText.field(written.path))")
        }
    }
}

/// What `notes export --json` prints.
private struct Report: Encodable {
    /// How many notes were written.
    let notes: Int
    let path: String
}
