import Foundation

/// Writes notes as Markdown: `notes.md` in a folder, with each image as a file in `images/`
/// beside it, linked from its note.
public enum MarkdownExport {
    public static func write(_ archive: NotesArchive, to folder: URL) throws {
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let dates = ISO8601DateFormatter()
        var text = "# Notes\n\nExported from UnCloudNotes (\(archive.modelVersion)), \(archive.notes.count) note(s).\n"
        for (noteIndex, note) in archive.notes.enumerated() {
            text += "\n## \(note.title)\n\n"
            if let date = note.dateCreated { text += "_\(dates.string(from: date))_\n\n" }
            if !note.body.isEmpty { text += note.body + "\n" }
            for (imageIndex, image) in note.images.enumerated() {
                let fileExtension = image.format == "jpeg" ? "jpg" : (image.format ?? "bin")
                let name = "note-\(noteIndex + 1)-\(imageIndex + 1).\(fileExtension)"
                try image.data.write(to: images.appendingPathComponent(name))
                let alt = (image.caption?.isEmpty == false ? image.caption! : "image \(imageIndex + 1)")
                    .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: "\n", with: " ")
                text += "\n![\(alt)](images/\(name))"
                if let width = image.width, let height = image.height { text += " <!-- \(width)x\(height) px -->" }
                text += "\n"
            }
        }
        try Data(text.utf8).write(to: folder.appendingPathComponent("notes.md"))
    }
}
