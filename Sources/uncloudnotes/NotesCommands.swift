import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct NotesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "Work with notes from scripts, without the full-screen app.",
        subcommands: [NotesAddCommand.self, NotesListCommand.self])
}

extension GlobalOptions {
    /// The note book of the store, upgraded first when an older version wrote it (the upgrade's
    /// lines go to stderr, so they never mix with a command's output).
    func openNoteBook() throws -> NoteBook {
        let stack = try stack()
        let context = try stack.open(observer: { event in
            if case .message(let text) = event { FileHandle.standardError.write(Data("\(text)\n".utf8)) }
            if case .backupCreated(let path) = event {
                FileHandle.standardError.write(Data("backup of the original store: \(path)\n".utf8))
            }
        })
        return NoteBook(context: context)
    }
}

struct NotesAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a note.",
        discussion: """
            The body comes from --body, or from standard input when it is not a terminal.

            Examples:
              uncloudnotes notes add --title "Groceries" --body "milk, eggs"
              echo "from a pipe" | uncloudnotes notes add --title Piped
              uncloudnotes notes add --title Cat --image ~/cat.png
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "The note's title (required, not empty).") var title: String
    @Option(help: "The note's body. Default: standard input when piped, else empty.") var body: String?
    @Option(name: .customLong("image"), help: ArgumentHelp("An image to attach (PNG, JPEG, …); repeat from v3 on.", valueName: "path"))
    var images: [String] = []
    @Flag(help: "Print the new note as JSON.") var json = false

    func validate() throws {
        if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("--title must not be empty") }
    }

    func run() throws {
        let text = body ?? (isatty(STDIN_FILENO) == 1 ? "" : String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self))
        let pictures = try images.map { try NoteImage(contentsOf: URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath)) }
        let book = try global.openNoteBook()
        let note = try book.addNote(title: title, body: text, images: pictures)
        let id = note.objectID.primaryKey ?? 0
        print(json ? "{\"id\":\(id)}" : "added note \(id)")
    }
}

struct NotesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List notes, newest first.",
        discussion: """
            Examples:
              uncloudnotes notes list
              uncloudnotes notes list --json
            """)

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON lines: one note per line.") var json = false

    func run() throws {
        let book = try global.openNoteBook()
        for note in try book.notes() {
            let id = note.objectID.primaryKey ?? 0
            let title = note.value(forKey: "title")?.displayText ?? ""
            let date = note.value(forKey: "dateCreated").flatMap { if case .date(let value) = $0 { value } else { nil } }
            if json {
                let object: [String: Any] = ["id": id, "title": title, "dateCreated": date.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull()]
                print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
            } else {
                print("\(id)\t\(date.map { ISO8601DateFormatter().string(from: $0) } ?? "-")\t\(title)")
            }
        }
    }
}
