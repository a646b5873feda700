import Foundation

/// Writes notes as Markdown: `notes.md` in a folder, newest note first (as the list shows
/// them), with each image as a file in `images/` beside it, linked from its note. Every file
/// is created private (0600, folders 0700).
///
/// Titles and captions are written as `notes list` prints them (`TerminalText.field`: a line
/// break as `\n`, ESC as `^[`) and bodies as `notes show` does (`TerminalText.visible`), so a
/// heading stays one line and no escape sequence reaches a terminal that shows the file; the
/// JSON export keeps the text exactly. Images are named by their note's number
/// (`note-12-1.jpg` is note 12's first image), so each keeps its name from one export to the next.
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
            if let date = note.dateCreated { text += "_\(LocalDates.iso8601(date))_\n\n" }
            if !note.body.isEmpty { text += TerminalText.visible(note.body) + "\n" }
            for (imageIndex, image) in note.images.enumerated() {
                let fileExtension = image.format == "jpeg" ? "jpg" : (image.format ?? "bin")
                let name = "note-\(id)-\(imageIndex + 1).\(fileExtension)"
                try PrivateFiles.write(image.data, to: images.appendingPathComponent(name))
                let caption = image.caption.flatMap { $0.isEmpty ? nil : $0 } ?? "image \(imageIndex + 1)"
                text += "\n![\(TerminalText.field(caption).replacingOccurrences(of: "]", with: "\\]"))](images/\(name))"
                if let width = image.width, let height = image.height { text += " <!-- \(width)x\(height) px -->" }
                text += "\n"
            }
        }
        try PrivateFiles.write(Data(text.utf8), to: folder.appendingPathComponent("notes.md"))
        return notes.count
    }
}
