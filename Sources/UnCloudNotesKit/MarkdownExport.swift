import Foundation

/// Writes notes as Markdown: `notes.md` in a folder, newest note first (as the list shows
/// them), with each image as a file in `images/` beside it, linked from its note. Every file
/// is created private (0600, folders 0700) and each file is replaced whole or not at all: an
/// export that fails (a full disk) leaves the earlier `notes.md` as it was, and each image either
/// old or new. An image whose file holds its bytes already is not written again.
///
/// Titles and captions are written as `notes list` prints them (`TerminalText.field`: a line
/// break as `\n`, ESC as `^[`) and bodies as `notes show` does (`TerminalText.visible`), so a
/// heading stays one line and no escape sequence reaches a terminal that shows the file; the
/// JSON export keeps the text exactly. Images are named by their note's number
/// (`note-12-1.jpg` is note 12's first image), so each keeps its name from one export to the next.
///
/// From v5 each note's heading is followed by its front matter, a YAML block between `---`
/// lines as static site generators and nb read it: `identifier`, `created`, `modified`,
/// `pinned` and `tags` (names double-quoted by `YAMLText`, written as they are).
public enum MarkdownExport {
    /// Writes every note of the book into `folder`.
    /// - Returns: how many notes were written.
    public static func write(_ book: NoteBook, to folder: URL) throws -> Int {
        let notes = try NotesArchive.numberedNotes(of: book)
        let images = folder.appendingPathComponent("images")
        try PrivateFiles.makeFolder(folder)
        try PrivateFiles.makeFolder(images)
        var text = "# Notes\n\nExported from UnCloudNotes (\(book.context.model.name)), \(notes.count.counting("note")), newest first.\n"
        for (id, note) in notes.reversed() {
            text += "\n## \(TerminalText.field(note.title))\n\n"
            text += frontMatter(of: note)
            if let date = note.dateCreated { text += "_\(LocalDates.iso8601(date))_\n\n" }
            if !note.body.isEmpty { text += TerminalText.visible(note.body) + "\n" }
            for (imageIndex, image) in note.images.enumerated() {
                let fileExtension = image.format == "jpeg" ? "jpg" : (image.format ?? "bin")
                let name = "note-\(id)-\(imageIndex + 1).\(fileExtension)"
                let file = images.appendingPathComponent(name)
                // Unchanged since the last export: no write, no sync. A file that cannot be read (none yet) is written.
                if (try? Data(contentsOf: file)) != image.data { try PrivateFiles.replace(file, with: image.data) }
                let caption = image.caption.flatMap { $0.isEmpty ? nil : $0 } ?? "image \(imageIndex + 1)"
                text += "\n![\(TerminalText.field(caption).replacingOccurrences(of: "]", with: "\\]"))](images/\(name))"
                if let width = image.width, let height = image.height { text += " <!-- \(width)x\(height) px -->" }
                text += "\n"
            }
        }
        try PrivateFiles.replace(folder.appendingPathComponent("notes.md"), with: Data(text.utf8))
        return notes.count
    }

    /// A note's v5 properties as YAML front matter; nothing for a note of an earlier version.
    static func frontMatter(of note: NotesArchive.Note) -> String {
        guard let identifier = note.identifier else { return "" }
        var lines = ["---", "identifier: \(identifier.uuidString)"]
        if let created = note.dateCreated { lines.append("created: \(LocalDates.iso8601(created))") }
        if let modified = note.dateModified { lines.append("modified: \(LocalDates.iso8601(modified))") }
        lines.append("pinned: \(note.pinned ?? false)")
        lines.append("tags: [\((note.tags ?? []).map(YAMLText.doubleQuoted).joined(separator: ", "))]")
        lines.append("---")
        return lines.joined(separator: "\n") + "\n\n"
    }
}
