import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct NotesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "Work with notes from scripts, without the full-screen app.",
        discussion: """
            Notes are numbered as `notes list` shows them. Errors go to stderr in one line; exit \
            codes are 0 (ok), 1 (error) and 2 (usage).

            Examples:
              uncloudnotes notes add --title "Groceries" --body "milk"
              uncloudnotes notes list --json
              uncloudnotes notes export --markdown ~/notes
            """,
        subcommands: [NotesListCommand.self, NotesShowCommand.self, NotesAddCommand.self, NotesEditCommand.self,
                      NotesAttachCommand.self, NotesDeleteCommand.self, NotesExportCommand.self, NotesImportCommand.self])
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

extension NoteBook {
    /// The note with a number as `notes list` shows it, or a clear error (also when its row is damaged).
    func note(number: Int64) throws -> ManagedObject {
        guard let note = try context.existingObject(with: ObjectID(entityName: "Note", primaryKey: number)) else {
            throw CommandFailure("there is no note \(number) (see uncloudnotes notes list)")
        }
        return note
    }
}

/// Reads the body from standard input when it is piped, without the final newline `echo` adds.
func standardInputText() -> String? {
    guard isatty(STDIN_FILENO) != 1 else { return nil }
    let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
}

func loadImages(_ paths: [String]) throws -> [NoteImage] {
    try paths.map { try NoteImage(contentsOf: URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath)) }
}

func printJSON(_ object: Any) throws {
    print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
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
        let text = body ?? standardInputText() ?? ""
        let pictures = try loadImages(images)
        let book = try global.openNoteBook()
        let note = try book.addNote(title: title, body: text, images: pictures)
        let id = note.objectID.primaryKey ?? 0
        print(json ? "{\"id\":\(id)}" : "added note \(id)")
    }
}

struct NotesListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List notes, newest first: number, date, title.",
        discussion: """
            Examples:
              uncloudnotes notes list
              uncloudnotes notes list --search milk
              uncloudnotes notes list --json | jq -r .title
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Only notes whose title or body contains this (ignoring case and accents).") var search: String?
    @Flag(help: "Print JSON lines: one note per line.") var json = false

    func run() throws {
        let book = try global.openNoteBook()
        let notes = try book.notes(matching: search.map(NoteBook.searchPredicate))
        for note in notes {
            let snapshot = book.snapshot(of: note)
            let id = note.objectID.primaryKey ?? 0
            let date = snapshot.dateCreated.map { ISO8601DateFormatter().string(from: $0) }
            if json {
                try printJSON(["id": id, "title": snapshot.title, "dateCreated": date ?? NSNull(), "images": snapshot.attachments.count])
            } else {
                let images = snapshot.attachments.isEmpty ? "" : " [\(snapshot.attachments.count) img]"
                print("\(id)\t\(date ?? "-")\t\(snapshot.title)\(images)")
            }
        }
        if let failure = notes.failure { throw failure }
    }
}

struct NotesShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one note: title, date, body and its images.",
        discussion: """
            Examples:
              uncloudnotes notes show 3
              uncloudnotes notes show 3 --json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note's number, as notes list shows it.") var id: Int64
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let book = try global.openNoteBook()
        let snapshot = book.snapshot(of: try book.note(number: id))
        let date = snapshot.dateCreated.map { ISO8601DateFormatter().string(from: $0) }
        let images: [[String: Any]] = snapshot.attachments.map { attachment in
            let size = attachment.imageData.flatMap { try? NoteImage(storedData: $0).pixelSize() }
            var item: [String: Any] = ["bytes": attachment.imageData?.count ?? 0]
            if let size { item["width"] = size.width; item["height"] = size.height }
            if let caption = attachment.caption { item["caption"] = caption }
            return item
        }
        if json {
            try printJSON(["id": id, "title": snapshot.title, "body": snapshot.body, "dateCreated": date ?? NSNull(), "images": images])
            return
        }
        print(snapshot.title)
        print(date ?? "-")
        print("")
        print(snapshot.body)
        for (index, image) in images.enumerated() {
            let size = (image["width"] as? Int).map { "\($0)x\(image["height"] as? Int ?? 0) px, " } ?? ""
            let caption = (image["caption"] as? String).map { ", caption: \($0)" } ?? ""
            print("image \(index + 1): \(size)\(image["bytes"] as? Int ?? 0) bytes\(caption)")
        }
    }
}

struct NotesEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a note's title or body.",
        discussion: """
            The body comes from --body, or from standard input when it is piped and --body is not given.

            Examples:
              uncloudnotes notes edit 3 --title "Groceries (Saturday)"
              cat draft.txt | uncloudnotes notes edit 3
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note's number.") var id: Int64
    @Option(help: "The new title.") var title: String?
    @Option(help: "The new body.") var body: String?

    func run() throws {
        let book = try global.openNoteBook()
        let note = try book.note(number: id)
        let snapshot = book.snapshot(of: note)
        let newBody = body ?? (title == nil ? standardInputText() : nil) ?? snapshot.body
        guard title != nil || body != nil || newBody != snapshot.body else {
            throw ValidationError("give --title, --body, or a body on standard input")
        }
        try book.update(note, title: title ?? snapshot.title, body: newBody)
        print("updated note \(id)")
    }
}

struct NotesAttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach images to a note (from v2 on; several from v3 on).",
        discussion: """
            Each file is checked to be a decodable image before anything is stored.

            Examples:
              uncloudnotes notes attach 3 --image ~/Pictures/cat.png
              uncloudnotes notes attach 3 --image a.jpg --image b.png
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note's number.") var id: Int64
    @Option(name: .customLong("image"), help: ArgumentHelp("An image file; repeat for several.", valueName: "path"))
    var images: [String]

    func validate() throws {
        if images.isEmpty { throw ValidationError("give at least one --image") }
    }

    func run() throws {
        let pictures = try loadImages(images)
        let book = try global.openNoteBook()
        let note = try book.note(number: id)
        if let limit = book.capabilities.maxImagesPerNote, pictures.count > limit {
            throw CommandFailure(limit == 0 ? "notes of this model version have no images (run as v2 or later)"
                                            : "notes of this model version hold one image (run as v3 or later for more)")
        }
        for picture in pictures { try book.attach(picture, to: note) }
        try book.saveChanges()
        print("attached \(pictures.count) image(s) to note \(id)")
    }
}

struct NotesDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a note and its images.",
        discussion: """
            Examples:
              uncloudnotes notes delete 3
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The note's number.") var id: Int64

    func run() throws {
        let book = try global.openNoteBook()
        try book.delete(try book.note(number: id))
        print("deleted note \(id)")
    }
}

struct NotesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export every note: JSON (images embedded) or Markdown (images as files beside it).",
        discussion: """
            Examples:
              uncloudnotes notes export > notes.json
              uncloudnotes notes export --markdown ~/notes-export
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Write Markdown into this folder (notes.md and images/) instead of JSON.", valueName: "folder"))
    var markdown: String?
    @Option(help: ArgumentHelp("Write the JSON to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let archive = try NotesArchive(book: try global.openNoteBook())
        if let markdown {
            let folder = URL(fileURLWithPath: (markdown as NSString).expandingTildeInPath)
            try MarkdownExport.write(archive, to: folder)
            print("wrote \(archive.notes.count) note(s) to \(folder.appendingPathComponent("notes.md").path)")
        } else if let output {
            try archive.jsonData().write(to: URL(fileURLWithPath: (output as NSString).expandingTildeInPath))
            print("wrote \(archive.notes.count) note(s) to \(output)")
        } else {
            print(String(decoding: try archive.jsonData(), as: UTF8.self))
        }
    }
}

struct NotesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the notes of a JSON export (all of them, or none on error).",
        discussion: """
            Examples:
              uncloudnotes notes import notes.json
              uncloudnotes --store other.sqlite notes import notes.json
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A file written by notes export.") var file: String

    func run() throws {
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CommandFailure("\(url.path): cannot read the file")
        }
        let archive = try NotesArchive.read(data, source: url.path)
        let count = try global.openNoteBook().importArchive(archive)
        print("imported \(count) note(s)")
    }
}
