import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List notes, newest first: number, date, title, images (tab-separated); v5 adds pin and tags.",
        discussion: """
            Titles are printed with tabs, line breaks and backslashes as \\t, \\n and \\\\, and other \
            control characters visibly (^[ for ESC), so each note is one line of four fields; \
            from v5 six: number, date, title, images, "pinned" or nothing, tags (comma-separated). \
            From v5 pinned notes come first. Dates are local time with the zone's offset (ISO \
            8601, as in --json); the date shown is the one the list sorts by. \
            Rows stream as they are read: a million notes list without waiting.

            Examples:
              uncloudnotes notes list
              uncloudnotes notes list --search milk
              uncloudnotes notes list --limit 20 --offset 40
              uncloudnotes notes list --tag work --pinned
              uncloudnotes notes list --sort modified --since 2026-05-01
              uncloudnotes notes list --since "3 days ago" --until yesterday
              uncloudnotes notes list --until 2026-11-28   (the 28th included)
              uncloudnotes notes list --json | jq -r .title
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Only notes whose title, body or a tag name contains this (ignoring case and accents).") var search: String?
    @Option(help: ArgumentHelp("Only notes with this tag (v5).", valueName: "name")) var tag: String?
    @Flag(help: "Only pinned notes (v5).") var pinned = false
    @Option(help: ArgumentHelp("Only notes dated at or after the start of this, by the sort's date: a day (2026-05-12), a month (2026-05), today, yesterday, 3 days ago, 2 weeks ago, last monday, or an ISO 8601 moment.",
                               valueName: "date"),
            transform: MomentArgument.start)
    var since: Date?
    @Option(help: ArgumentHelp("Only notes dated up to the end of this (a day is included whole; an ISO 8601 moment is not).", valueName: "date"),
            transform: MomentArgument.end)
    var until: Date?
    @Option(help: ArgumentHelp("Order by the date notes were created or last modified (v5), newest first.", valueName: "created|modified"))
    var sort: NoteSort = .created
    // Unconditional, so that `--limit -1` reaches the check and is refused for what it is.
    @Option(parsing: .unconditional, help: "Show at most this many notes.", transform: WholeNumber.count)
    var limit: Int?
    @Option(parsing: .unconditional, help: "Skip this many notes first (with --limit: pages).", transform: WholeNumber.count)
    var offset = 0
    @OptionGroup var format: OutputFormat

    /// From how many notes the first search's index build takes long enough to mention.
    static let noticeBuildingFrom = 10_000

    func run() throws {
        let book = try global.openNoteBook()
        let encoder = makeReportEncoder()
        let query = NoteQuery(search: search, tag: tag, pinnedOnly: pinned, since: since, until: until, sort: sort)
        let v5 = book.capabilities.hasTags
        // The first search of a big store builds the index: say so rather than wait in silence.
        if let search, !search.isEmpty, book.searchIndexIsMissing, try book.count() >= Self.noticeBuildingFrom {
            StandardError.line("building the search index beside the store, once (a few seconds per 100,000 notes); later searches answer at once")
        }
        try book.forEachRow(query, page: ListPage(limit: limit, offset: offset)) { row in
            let date = row.date(sortedBy: sort).map { LocalDates.iso8601($0) }
            if format.json {
                try printJSON(JSONLine(row, v5: v5), encoder: encoder)
            } else {
                let images = row.imageCount == 0 ? "" : row.imageCount.counting("image")
                var fields = ["\(row.id)", date ?? "-", TerminalText.field(row.title), images]
                if v5 { fields += [row.pinned ? "pinned" : "", row.tags.map(TerminalText.field).joined(separator: ", ")] }
                try StandardOutput.line(fields.joined(separator: "\t"))
            }
        }
    }
}

extension NoteSort: ExpressibleByArgument {}

/// One line of `notes list --json`; a note without a date has `"dateCreated": null`. From v5
/// also `dateModified`, `pinned` and `tags`.
private struct JSONLine: Encodable {
    let id: Int64
    let title: String
    let dateCreated: OrNull<String>
    let images: Int
    let dateModified: OrNull<String>?
    let pinned: Bool?
    let tags: [String]?

    init(_ row: NoteRow, v5: Bool) {
        id = row.id.number
        title = row.title
        dateCreated = OrNull(value: row.dateCreated.map { LocalDates.iso8601($0) })
        images = row.imageCount
        dateModified = v5 ? OrNull(value: row.dateModified.map { LocalDates.iso8601($0) }) : nil
        pinned = v5 ? row.pinned : nil
        tags = v5 ? row.tags : nil
    }
}
