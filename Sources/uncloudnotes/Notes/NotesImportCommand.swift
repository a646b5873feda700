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
              uncloudnotes --store other.sqlite notes import notes.json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A file written by notes export.") var file: String
    @Flag(help: "Print how many notes were imported as JSON.") var json = false

    func run() throws {
        let url = fileURL(file)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CommandFailure("\(url.path): cannot read the file")
        }
        let archive = try NotesArchive.read(data, source: url.path)
        let count = try global.openNoteBook(creating: true).importArchive(archive)
        if json {
            try printJSON(["imported": count])
        } else {
            print("imported \(count.counting("note"))")
        }
    }
}
