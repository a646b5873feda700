import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the notes of a JSON export (all of them, or none on error).",
        discussion: """
            Every image is checked as notes attach checks it (format, at most \
            \(ImageFormats.maxPixelCount / 1_000_000) megapixels). Notes the store already holds \
            (the same title, body, creation date and images) are skipped and counted, so importing \
            a file twice adds nothing the second time; --as-new adds them again as copies.

            Examples:
              uncloudnotes notes import notes.json
              uncloudnotes notes import --as-new notes.json     add copies of notes already there
              uncloudnotes --store other.sqlite notes import notes.json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A file written by notes export.") var file: String
    @Flag(help: "Also add the notes the store already holds, as copies.") var asNew = false
    @Flag(help: "Print how many notes were imported and skipped as JSON.") var json = false

    func run() throws {
        let url = fileURL(file)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CommandFailure("\(url.path): cannot read the file")
        }
        let archive = try NotesArchive.read(data, source: url.path)
        let outcome = try global.openNoteBook(creating: true).importArchive(archive, copyingNotesAlreadyHere: asNew)
        if json {
            try printJSON(["imported": outcome.imported, "skipped": outcome.skipped])
        } else if outcome.skipped > 0 {
            print("imported \(outcome.imported.counting("note")); skipped \(outcome.skipped) already in the store (--as-new adds copies)")
        } else {
            print("imported \(outcome.imported.counting("note"))")
        }
    }
}
