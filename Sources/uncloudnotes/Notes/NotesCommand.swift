import ArgumentParser
import Foundation
import UnCloudNotesKit

struct NotesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "Work with notes from scripts, without the full-screen app.",
        discussion: """
            Notes are numbered as `notes list` shows them. Errors go to stderr in one line; exit \
            codes are 0 (ok), 1 (error) and 2 (usage). Every command that reports something takes \
            --json.

            Examples:
              uncloudnotes notes add --title "Groceries" --body "milk"
              uncloudnotes notes list --json
              uncloudnotes notes add --title "Plan" --tag work --tag urgent
              uncloudnotes notes pin 3
              uncloudnotes notes list --tag work --sort modified
              uncloudnotes notes export --markdown ~/notes
            """,
        subcommands: [NotesListCommand.self, NotesShowCommand.self, NotesAddCommand.self, NotesEditCommand.self,
                      NotesAttachCommand.self, NotesCaptionCommand.self, NotesImageCommand.self, NotesDeleteCommand.self,
                      NotesTagCommand.self, NotesTagsCommand.self, NotesPinCommand.self, NotesUnpinCommand.self,
                      NotesExportCommand.self, NotesImportCommand.self])
}

extension GlobalOptions {
    /// The note book of the store, upgraded first when an older version wrote it (the upgrade's
    /// lines go to stderr, so they never mix with a command's output). Only commands that add
    /// notes pass `creating`: a missing store is then created, and stderr says so.
    func openNoteBook(creating: Bool = false) throws -> NoteBook {
        let stack = try stack()
        let isNew = !stack.storeExists
        // The default store's folders are made on first use; a store named elsewhere in a folder
        // that does not exist is more likely a typo than a wish (the app asks first).
        let folder = stack.storeURL.deletingLastPathComponent()
        if creating, isNew, !createFolders, stack.storeURL != StoreLocation.defaultURL(), !FileManager.default.fileExists(atPath: folder.path) {
            throw CommandFailure("the folder \(TerminalText.field(folder.path)) does not exist; check --store, or give --create-folders to make it")
        }
        let console = MigrationConsole()
        let book = try stack.open(creatingIfMissing: creating, observer: { event in
            for line in console.lines(for: event, store: stack.storeURL) {
                StandardError.line(TerminalText.field(line))
            }
            switch event {
            case .waitingForLock:
                let store = TerminalText.field(stack.storeURL.path)
                StandardError.line("waiting for another uncloudnotes to finish upgrading \(store)…")
            case .backupCreated(let path, _):
                StandardError.line("backup of the original store: \(TerminalText.field(path))")
            default:
                break
            }
        })
        if isNew { StandardError.line("created new store \(TerminalText.field(stack.storeURL.path))") }
        return book
    }
}

/// Reads and checks image files (size from the header, within the pixel limit, decodable)
/// before anything is stored.
func loadImages(_ paths: [String]) throws -> [NoteImage] {
    try paths.map { try NoteImage(contentsOf: fileURL($0)) }
}

/// The encoder of every `--json` report: keys sorted, slashes left as they are; it escapes
/// control characters.
func makeReportEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}

/// Prints a command's report as one JSON object on one line (`notes list` passes the encoder it
/// reuses for every row).
func printJSON(_ report: some Encodable, encoder: JSONEncoder = makeReportEncoder()) throws {
    try StandardOutput.line(String(decoding: try encoder.encode(report), as: UTF8.self))
}

/// A report field that is always there: `null` when there is no value (synthesized encoding
/// leaves absent optionals out).
struct OrNull<Value: Encodable>: Encodable {
    let value: Value?

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
