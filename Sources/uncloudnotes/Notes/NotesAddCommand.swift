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

            Examples:
              uncloudnotes notes add --title "Groceries" --body "milk, eggs"
              echo "from a pipe" | uncloudnotes notes add --title Piped
              uncloudnotes notes add --title Cat --image ~/cat.png
              uncloudnotes notes add --title Plan --body "" --tag work --tag urgent
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "The note's title (required, not empty).") var title: String
    @OptionGroup var body: NoteBodyOptions
    @Option(name: .customLong("image"), help: ArgumentHelp("An image to attach (\(ImageFormats.supportedList)); repeat from v3 on.", valueName: "path"))
    var images: [String] = []
    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag to give the note (repeatable; v5).", valueName: "name"))
    var tags: [String] = []
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if !NoteDraft(title: title, body: "").hasTitle { throw ValidationError("--title must not be empty") }
        do {
            _ = try TagName.checked(tags)
        } catch {
            throw ValidationError("--tag: \(error)")
        }
    }

    func run() throws {
        let pictures = try loadImages(images)
        let text = try body.resolve(editing: "") ?? ""
        let book = try global.openNoteBook(creating: true)
        let id = try book.add(NoteDraft(title: title, body: text, tags: tags.isEmpty ? nil : tags), images: pictures).number
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
