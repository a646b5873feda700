import Foundation

/// Writes notes as Markdown: `notes.md` in a folder, newest note first (as the list shows
/// them), with each image as a file in `images/` beside it, linked from its note. Every file
/// is created private (0600, folders 0700).
public enum MarkdownExport {
    public static func write(_ archive: NotesArchive, to folder: URL) throws {
        let images = folder.appendingPathComponent("images")
        try PrivateFiles.makeFolder(folder)
        try PrivateFiles.makeFolder(images)
        var text = "# Notes\n\nExported from UnCloudNotes (\(archive.modelVersion)), \(archive.notes.count.counting("note")), newest first.\n"
        for (noteIndex, note) in archive.notes.reversed().enumerated() {
            text += "\n## \(note.title)\n\n"
            if let date = note.dateCreated { text += "_\(LocalDates.iso8601(date))_\n\n" }
            if !note.body.isEmpty { text += note.body + "\n" }
            for (imageIndex, image) in note.images.enumerated() {
                let fileExtension = image.format == "jpeg" ? "jpg" : (image.format ?? "bin")
                let name = "note-\(noteIndex + 1)-\(imageIndex + 1).\(fileExtension)"
                try PrivateFiles.write(image.data, to: images.appendingPathComponent(name))
                let caption = image.caption.flatMap { $0.isEmpty ? nil : $0 } ?? "image \(imageIndex + 1)"
                let alt = caption.replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: "\n", with: " ")
                text += "\n![\(alt)](images/\(name))"
                if let width = image.width, let height = image.height { text += " <!-- \(width)x\(height) px -->" }
                text += "\n"
            }
        }
        try PrivateFiles.write(Data(text.utf8), to: folder.appendingPathComponent("notes.md"))
    }
}
