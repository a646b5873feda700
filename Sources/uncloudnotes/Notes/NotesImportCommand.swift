import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the notes of a JSON export (all of them, or none on error).",
        discussion: """
            Every image is checked as notes attach checks it (format, at most \
            \(ImageFormats.maxPixelCount / 1_000_000) megapixels). From v5 notes merge by their \
            identifier: a note the store holds is left as it is when the file's is the same or \
            older, and updated (text, pin, tags, images it lacks) when the file's was modified \
            later; other notes are added with their identifiers. Notes without one (exports of \
            v1-v4) that the store already holds (the same title, body, creation date and images) \
            are skipped. So importing a file twice changes nothing the second time, and says so; \
            --as-new adds every note again as a copy, with new identifiers.

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
        // The file is read as it is imported, a chunk at a time: never whole in memory.
        let input = try fromStandardInput ? UserFileChunks.standardInput() : UserFileChunks(url: fileURL(file))
        var reader = NotesArchiveReader(source: fromStandardInput ? "standard input" : fileURL(file).path, nextChunk: input.next)
        // The file's start (its header and first note) is checked before the store is opened, so
        // a file that is no export leaves no new, empty store behind.
        var first = try reader.nextNote()
        let hasNoNotes = first == nil
        let outcome = try global.openNoteBook(creating: true).importNotes(copyingNotesAlreadyHere: asNew) {
            if let note = first {
                first = nil
                return note
            }
            return hasNoNotes ? nil : try reader.nextNote()
        }
        if format.json {
            var report = ["imported": outcome.imported, "skipped": outcome.skipped]
            if outcome.updated > 0 { report["updated"] = outcome.updated }
            try printJSON(report)
        } else if outcome.changedNothing, outcome.skipped > 0 {
            try StandardOutput.line("nothing changed: the store already holds all \(outcome.skipped.counting("note")) of the file (--as-new adds copies)")
        } else {
            var parts = ["imported \(outcome.imported.counting("note"))"]
            if outcome.updated > 0 { parts.append("updated \(outcome.updated) to the file's newer version") }
            if outcome.skipped > 0 { parts.append("skipped \(outcome.skipped) already in the store (--as-new adds copies)") }
            try StandardOutput.line(parts.joined(separator: "; "))
        }
    }
}
