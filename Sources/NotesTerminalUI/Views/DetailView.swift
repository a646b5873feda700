import Foundation
import UnCloudNotesKit

extension NotesApp {
    /// A note: title, date, scrollable body and its images (with size, and caption in v4).
    func drawDetail(_ state: DetailState, into buffer: inout CellBuffer, area: Rect) {
        guard let note = snapshot(of: state.noteID) else { return }
        buffer.put(CellBuffer.truncate(note.title, to: area.width), in: area, row: 0, style: .bold)
        buffer.put(formatted(note.dateCreated), in: area, row: 1, style: .dim)
        let content = Rect(top: area.top + 3, left: area.left, width: area.width, height: area.height - 3)
        let hasImages = !note.attachments.isEmpty
        let textArea: Rect, imageArea: Rect?
        if hasImages && content.width >= 100 {
            let textWidth = content.width / 2
            textArea = Rect(top: content.top, left: content.left, width: textWidth, height: content.height)
            imageArea = Rect(top: content.top, left: content.left + textWidth + 2, width: content.width - textWidth - 2, height: content.height)
        } else if hasImages {
            let textHeight = max(3, content.height / 3)
            textArea = Rect(top: content.top, left: content.left, width: content.width, height: textHeight)
            imageArea = Rect(top: content.top + textHeight + 1, left: content.left, width: content.width, height: content.height - textHeight - 1)
        } else {
            textArea = content
            imageArea = nil
        }
        let lines = TextWrapper.wrap(Array(note.body.isEmpty ? "(no text)" : note.body), width: textArea.width)
        lastDetailMaxScroll = max(0, lines.count - textArea.height)
        let scroll = min(state.scroll, lastDetailMaxScroll)
        for (row, line) in lines.dropFirst(scroll).prefix(textArea.height).enumerated() {
            buffer.put(line.text, in: textArea, row: row, style: note.body.isEmpty ? .dim : [])
        }
        if scroll > 0 { markMore("↑ more", in: &buffer, area: textArea, row: 0) }
        if scroll < lastDetailMaxScroll { markMore("↓ more", in: &buffer, area: textArea, row: textArea.height - 1) }
        guard let imageArea, imageArea.height >= 3 else { return }
        let index = min(state.attachment, note.attachments.count - 1)
        let attachment = note.attachments[index]
        var caption = "Image \(index + 1) of \(note.attachments.count)"
        if let data = attachment.imageData, let size = try? NoteImage(storedData: data).pixelSize() {
            caption += " · \(size.width)×\(size.height) px"
        }
        buffer.put(CellBuffer.truncate(caption, to: imageArea.width), in: imageArea, row: 0, style: .bold)
        var top = 1
        if supportsCaptions {
            let text = (attachment.caption ?? "").isEmpty ? "(no caption)" : attachment.caption!
            buffer.put(CellBuffer.truncate("Caption: " + text, to: imageArea.width), in: imageArea, row: 1)
            top = 2
        }
        let rows = imageArea.height - top - 1
        guard rows >= 2 else { return }
        let cells = preview(attachment, note: note, index: index, columns: imageArea.width, rows: rows)
        placePreview(cells, into: &buffer, area: imageArea, top: top + 1)
    }

    /// A reversed marker at the right end of a row, saying the text goes on beyond the area.
    private func markMore(_ text: String, in buffer: inout CellBuffer, area: Rect, row: Int) {
        let marker = " \(text) "
        buffer.put(marker, in: area, row: row, indent: max(0, area.width - DisplayWidth.of(marker)), style: .reverse)
    }
}
