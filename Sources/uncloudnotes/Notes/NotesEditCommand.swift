import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a note's title or body.",
        discussion: """
            The body comes from --body (- for standard input), else from standard input when it is \
            piped. At a terminal with neither --title nor --body, the body opens in \
            $VISUAL or $EDITOR, as git commit does: an unchanged or empty result writes nothing. \
            An empty standard input is refused unless --allow-empty (with --title, an empty pipe \
            keeps the body).

            Examples:
              uncloudnotes notes edit 3 --title "Groceries (Saturday)"
              cat draft.txt | uncloudnotes notes edit 3
              uncloudnotes notes edit 3            (opens the editor)
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @Option(help: "The new title.") var title: String?
    @OptionGroup var body: NoteBodyOptions
    @OptionGroup var format: OutputFormat

    func run() throws {
        let book = try global.openNoteBook()
        let snapshot = try book.snapshot(of: note.id)
        // With neither --title nor a body there is always a body or a refusal: nil means keep it.
        let newBody = try body.resolve(editing: title == nil ? snapshot.body : nil) ?? snapshot.body
        try book.update(snapshot.id, with: NoteDraft(title: title ?? snapshot.title, body: newBody))
        let changed = [title.map { _ in "title" }, newBody == snapshot.body ? nil : "body"].compactMap { $0 }
        if format.json {
            try printJSON(Report(id: note.id.number, changed: changed))
        } else {
            try StandardOutput.line("updated note \(note.id)")
        }
    }
}

/// What `notes edit --json` prints.
private struct Report: Encodable {
    let id: Int64
    /// "title", "body": the fields whose text changed.
    let changed: [String]
}
