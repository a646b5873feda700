import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a note.",
        discussion: """
            The body comes from --body (- for standard input), else from standard input when it is \
            piped, else (at a terminal) from $VISUAL or $EDITOR, as git commit does: an empty \
            result adds nothing. An empty standard input is refused unless --allow-empty.

            Or type the note in one go, as jrnl takes one: its first line is the title, the rest \
            the body, and from v5 each #word in it is a tag (the text kept as typed).

            Examples:
              uncloudnotes notes add "Groceries: milk, eggs #home"
              uncloudnotes notes add --title "Groceries" --body "milk, eggs"
              echo "from a pipe" | uncloudnotes notes add --title Piped
              uncloudnotes notes add --title Cat --image ~/cat.png
              uncloudnotes notes add --title Plan --body "" --tag work --tag urgent
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The note typed in one go: the first line its title, the rest its body, #words tags (v5). Instead of --title.",
                                 valueName: "text"))
    var text: String?
    @Option(help: "The note's title (not empty), unless the note is given as text.") var title: String?
    @OptionGroup var body: NoteBodyOptions
    @Option(name: .customLong("image"), help: ArgumentHelp("An image to attach (\(ImageFormats.supportedList)); repeat from v3 on.", valueName: "path"))
    var images: [String] = []
    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag to give the note (repeatable; v5).", valueName: "name"))
    var tags: [String] = []
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if let text {
            guard title == nil, body.body == nil else { throw ValidationError("give the note as text or with --title and --body, not both") }
            if !QuickNote.draft(text, tagging: false).hasTitle { throw ValidationError("the text's first line (the title) must not be empty") }
        } else {
            guard let title else { throw ValidationError("give --title, or the note as text (its first line the title)") }
            if !NoteDraft(title: title, body: "").hasTitle { throw ValidationError("--title must not be empty") }
        }
        do {
            _ = try TagName.checked(tags)
        } catch {
            throw ValidationError("--tag: \(error)")
        }
    }

    func run() throws {
        let pictures = try loadImages(images)
        let typed = try text == nil ? body.resolve(editing: "") ?? "" : ""
        let id = try body.keepingTyped(typed) {
            let book = try global.openNoteBook(creating: true)
            var draft = text.map { QuickNote.draft($0, tagging: book.capabilities.hasTags) } ?? NoteDraft(title: title ?? "", body: typed)
            let allTags = (draft.tags ?? []) + tags
            draft.tags = allTags.isEmpty ? nil : allTags
            return try book.add(draft, images: pictures).number
        }
        if format.json {
            try printJSON(Report(id: id, images: pictures.count))
        } else {
            try StandardOutput.line("added note \(id)")
        }
    }
}

/// What `notes add --json` prints.
private struct Report: Encodable {
    let id: Int64
    let images: Int
}
