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
              ssh laptop uncloudnotes notes export | uncloudnotes notes import -
              uncloudnotes notes import --as-new notes.json
                  also add copies of the notes already in the store
              uncloudnotes --store other.sqlite notes import notes.json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("A file written by notes export; - reads standard input.", valueName: "file")) var file: String
    @Flag(help: "Also add the notes the store already holds, as copies.") var asNew = false
    @OptionGroup var format: OutputFormat

    func run() throws {
        let fromStandardInput = file == "-"
        let data = try fromStandardInput ? UserFile.standardInput() : UserFile.contents(of: fileURL(file))
        let archive = try NotesArchive.read(data, source: fromStandardInput ? "standard input" : fileURL(file).path)
        let outcome = try global.openNoteBook(creating: true).importArchive(archive, copyingNotesAlreadyHere: asNew)
        if format.json {
            try printJSON(["imported": outcome.imported, "skipped": outcome.skipped])
        } else if outcome.skipped > 0 {
            try StandardOutput.line("imported \(outcome.imported.counting("note")); skipped \(outcome.skipped) already in the store (--as-new adds copies)")
        } else {
            try StandardOutput.line("imported \(outcome.imported.counting("note"))")
        }
    }
}
