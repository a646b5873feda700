import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesTagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add or remove a note's tags, or rename a tag (v5).",
        discussion: """
            A tag name is trimmed and holds no comma or control character; a leading # is not part \
            of it (#work is the tag work, as lists show it). Names match exactly ("Work" and "work" \
            are two tags), whichever way an accent was typed (NFC). A tag no note has any more is deleted.

            Examples:
              uncloudnotes notes tag 3 --add work --add urgent
              uncloudnotes notes tag 3 --remove urgent
              uncloudnotes notes tag rename urgent soon    (merged if soon exists)
              uncloudnotes notes tags                        (every tag with its count)
            """,
        subcommands: [NotesTagNoteCommand.self, NotesTagRenameCommand.self],
        defaultSubcommand: NotesTagNoteCommand.self)
}

struct NotesTagNoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Add and remove tags of one note (also: notes tag N --add NAME).",
        discussion: """
            Examples:
              uncloudnotes notes tag 3 --add work --remove later
              uncloudnotes notes tag note 3 --add work
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @Option(name: .customLong("add"), help: ArgumentHelp("A tag to give the note (repeatable).", valueName: "name")) var adding: [String] = []
    @Option(name: .customLong("remove"), help: ArgumentHelp("A tag to take from the note (repeatable).", valueName: "name")) var removing: [String] = []
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if adding.isEmpty, removing.isEmpty { throw ValidationError("give --add NAME or --remove NAME (or both)") }
    }

    func run() throws {
        let book = try global.openNoteBook()
        let id = try note.id(in: book)
        try book.changeTags(of: id, adding: adding, removing: removing)
        let tags = try book.snapshot(of: id).tags
        if format.json {
            try printJSON(TagsReport(id: id.number, tags: tags))
        } else {
            try StandardOutput.line("note \(id): " + (tags.isEmpty ? "no tags" : tags.map(TerminalText.field).joined(separator: ", ")))
        }
    }
}

struct NotesTagRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a tag on every note; into a name another tag has, the two merge.",
        discussion: """
            Examples:
              uncloudnotes notes tag rename wrok work
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The tag's name.", valueName: "old")) var old: String
    @Argument(help: ArgumentHelp("Its new name.", valueName: "new")) var new: String
    @OptionGroup var format: OutputFormat

    func run() throws {
        let book = try global.openNoteBook()
        let outcome = try book.renameTag(old, to: new)
        if format.json {
            try printJSON(RenameReport(old: old, new: new, notes: outcome.notes, merged: outcome == .merged(notes: outcome.notes),
                                       changed: outcome != .unchanged(notes: outcome.notes)))
        } else {
            let line = switch outcome {
            case .unchanged: "tag \(TerminalText.field(new)) already has that name; nothing changed"
            case .renamed(let notes): "renamed tag \(TerminalText.field(old)) to \(TerminalText.field(new)) (\(notes.counting("note")))"
            case .merged(let notes): "merged tag \(TerminalText.field(old)) into \(TerminalText.field(new)) (\(notes.counting("note")))"
            }
            try StandardOutput.line(line)
        }
    }
}

struct NotesTagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List every tag with its number of notes, by name (v5): name, count (tab-separated).",
        discussion: """
            Examples:
              uncloudnotes notes tags
              uncloudnotes notes tags --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var format: OutputFormat

    func run() throws {
        let tags = try global.openNoteBook().tags()
        if format.json {
            for tag in tags { try printJSON(TagLine(name: tag.name, notes: tag.count)) }
        } else {
            for tag in tags { try StandardOutput.line("\(TerminalText.field(tag.name))\t\(tag.count)") }
        }
    }
}

/// What `notes tag N --json` prints: the note's tags after the change.
private struct TagsReport: Encodable {
    let id: Int64
    let tags: [String]
}

/// What `notes tag rename --json` prints.
private struct RenameReport: Encodable {
    let old: String
    let new: String
    let notes: Int
    /// Whether the new name was another tag's, which now has the notes of both.
    let merged: Bool
    /// False when the new name was the old one (as stored): nothing changed.
    let changed: Bool
}

/// One line of `notes tags --json`, one per tag as `notes list --json` prints notes.
private struct TagLine: Encodable {
    let name: String
    let notes: Int
}
