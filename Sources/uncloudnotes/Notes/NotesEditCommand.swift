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
              uncloudnotes notes edit 3 --tag work --tag home   (exactly these tags)
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @Option(help: "The new title.") var title: String?
    @OptionGroup var body: NoteBodyOptions
    @Option(name: .customLong("tag"), help: ArgumentHelp("The note's tags from now on (repeatable; v5): the ones not given are removed.", valueName: "name"))
    var tags: [String] = []
    @OptionGroup var format: OutputFormat

    func validate() throws {
        do {
            _ = try TagName.checked(tags)
        } catch {
            throw ValidationError("--tag: \(error)")
        }
    }

    func run() throws {
        let book = try global.openNoteBook()
        let id = try note.id(in: book)
        let snapshot = try book.snapshot(of: id)
        // With neither --title nor a body (nor tags) there is always a body or a refusal: nil means keep it.
        let newBody = try body.resolve(editing: title == nil && tags.isEmpty ? snapshot.body : nil) ?? snapshot.body
        let newTags = tags.isEmpty ? nil : try TagName.checked(tags)
        try body.keepingTyped(newBody == snapshot.body ? "" : newBody) {
            try book.update(snapshot.id, with: NoteDraft(title: title ?? snapshot.title, body: newBody, tags: newTags))
        }
        let tagsChanged = newTags.map { Set($0) != Set(snapshot.tags) } ?? false
        let changed = [title.map { _ in "title" }, newBody == snapshot.body ? nil : "body", tagsChanged ? "tags" : nil].compactMap { $0 }
        if format.json {
            try printJSON(Report(id: id.number, changed: changed))
        } else {
            try StandardOutput.line("updated note \(id)")
        }
    }
}

/// What `notes edit --json` prints.
private struct Report: Encodable {
    let id: Int64
    /// "title", "body": the fields whose text changed.
    let changed: [String]
}
