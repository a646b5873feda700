import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the notes of a JSON export (all of them, or none on error).",
        discussion: """
            Every image is checked as notes attach checks it (format, at most \
            \(ImageFormats.maxPixelCount / 1_000_000) megapixels).

            Examples:
              uncloudnotes notes import notes.json
              ssh laptop uncloudnotes notes export | uncloudnotes notes import -
              uncloudnotes --store other.sqlite notes import notes.json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("A file written by notes export; - reads standard input.", valueName: "file")) var file: String
    @OptionGroup var format: OutputFormat

    func run() throws {
        let fromStandardInput = file == "-"
        let data = try fromStandardInput ? UserFile.standardInput() : UserFile.contents(of: fileURL(file))
        let archive = try NotesArchive.read(data, source: fromStandardInput ? "standard input" : fileURL(file).path)
        let count = try global.openNoteBook(creating: true).importArchive(archive)
        if format.json {
            try printJSON(["imported": count])
        } else {
            try StandardOutput.line("imported \(count.counting("note"))")
        }
    }
}
