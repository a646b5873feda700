import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List notes, newest first: number, date, title, images (tab-separated).",
        discussion: """
            Titles are printed with tabs, line breaks and backslashes as \\t, \\n and \\\\, and other \
            control characters visibly (^[ for ESC), so each note is one line of four fields. \
            Dates are local time with the zone's offset (ISO 8601, as in --json). \
            Rows stream as they are read: a million notes list without waiting.

            Examples:
              uncloudnotes notes list
              uncloudnotes notes list --search milk
              uncloudnotes notes list --limit 20 --offset 40
              uncloudnotes notes list --json | jq -r .title
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Only notes whose title or body contains this (ignoring case and accents).") var search: String?
    // Unconditional, so that `--limit -1` reaches the check and is refused for what it is.
    @Option(parsing: .unconditional, help: "Show at most this many notes.", transform: WholeNumber.count)
    var limit: Int?
    @Option(parsing: .unconditional, help: "Skip this many notes first (with --limit: pages).", transform: WholeNumber.count)
    var offset = 0
    @OptionGroup var format: OutputFormat

    func run() throws {
        let book = try global.openNoteBook()
        let encoder = makeReportEncoder()
        try book.forEachRow(matching: search, page: ListPage(limit: limit, offset: offset)) { row in
            let date = row.dateCreated.map { LocalDates.iso8601($0) }
            if format.json {
                try printJSON(JSONLine(id: row.id.number, title: row.title, dateCreated: OrNull(value: date), images: row.imageCount),
                              encoder: encoder)
            } else {
                let images = row.imageCount == 0 ? "" : row.imageCount.counting("image")
                try StandardOutput.line("\(row.id)\t\(date ?? "-")\t\(TerminalText.field(row.title))\t\(images)")
            }
        }
    }
}

/// One line of `notes list --json`; a note without a date has `"dateCreated": null`.
private struct JSONLine: Encodable {
    let id: Int64
    let title: String
    let dateCreated: OrNull<String>
    let images: Int
}
