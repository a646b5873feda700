import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a note's title or body.",
        discussion: """
            The body comes from --body (- for standard input), else from standard input when it is \
            piped and not empty. At a terminal with neither --title nor --body, the body opens in \
            $VISUAL or $EDITOR, as git commit does: an unchanged or empty result writes nothing. \
            An empty body from standard input is refused unless --allow-empty.

            Examples:
              uncloudnotes notes edit 3 --title "Groceries (Saturday)"
              cat draft.txt | uncloudnotes notes edit 3
              uncloudnotes notes edit 3            (opens the editor)
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note's number.") var id: Int64
    @Option(help: "The new title.") var title: String?
    @OptionGroup var body: NoteBodyOptions
    @Flag(help: "Print what changed as JSON.") var json = false

    func run() throws {
        let book = try global.openNoteBook()
        let snapshot = try book.snapshot(of: NoteID(id))
        guard let newBody = try body.resolve(editing: title == nil ? snapshot.body : nil) ?? (title == nil ? nil : snapshot.body) else {
            throw ValidationError("nothing to change: give --title, --body, or a body on standard input (it was empty)")
        }
        try book.update(snapshot.id, with: NoteDraft(title: title ?? snapshot.title, body: newBody))
        let changed = [title.map { _ in "title" }, newBody == snapshot.body ? nil : "body"].compactMap { $0 }
        if json {
            try printJSON(Report(id: id, changed: changed))
        } else {
            print("updated note \(id)")
        }
    }
}

/// What `notes edit --json` prints.
private struct Report: Encodable {
    let id: Int64
    /// "title", "body": the fields whose text changed.
    let changed: [String]
}
