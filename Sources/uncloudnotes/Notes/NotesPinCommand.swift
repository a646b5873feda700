import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesPinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Pin a note: pinned notes list first (v5).",
        discussion: """
            Examples:
              uncloudnotes notes pin 3
              uncloudnotes notes list --pinned
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var format: OutputFormat

    func run() throws {
        try setPin(true, of: note, global: global, json: format.json)
    }
}

struct NotesUnpinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpin",
        abstract: "Unpin a note: it lists among the others again (v5).",
        discussion: """
            Examples:
              uncloudnotes notes unpin 3
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var format: OutputFormat

    func run() throws {
        try setPin(false, of: note, global: global, json: format.json)
    }
}

/// Pins or unpins, then says so (`--json`: `{"id":3,"pinned":true}`).
private func setPin(_ pinned: Bool, of note: NoteArgument, global: GlobalOptions, json: Bool) throws {
    let book = try global.openNoteBook()
    let id = try note.id(in: book)
    try book.setPinned(pinned, of: id)
    if json {
        try printJSON(PinReport(id: id.number, pinned: pinned))
    } else {
        try StandardOutput.line("\(pinned ? "pinned" : "unpinned") note \(id)")
    }
}

/// What `notes pin --json` and `notes unpin --json` print.
private struct PinReport: Encodable {
    let id: Int64
    let pinned: Bool
}
