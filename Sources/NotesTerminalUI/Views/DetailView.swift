import Foundation
import UnCloudNotesKit

extension NotesFrame {
    /// A note: title, date, scrollable body and its images (each with its size, and caption in v4).
    func drawDetail(_ state: NotesState.DetailState, into buffer: inout CellBuffer, area: Rect) {
        guard let note = shownNote, let text = shownText else { return }
        buffer.put(CellBuffer.truncate(note.title, to: area.width), in: area, row: 0, style: .bold)
        var facts = model.dates.zoned(note.dateCreated)
        if supportsTags {
            // v5: when it last changed, its pin and its tags, on the date's line.
            if let modified = note.dateModified, modified != note.dateCreated { facts += " · modified \(model.dates(modified))" }
            if note.pinned { facts += " · pinned" }
            if !note.tags.isEmpty { facts += " · " + note.tags.map { "#" + $0 }.joined(separator: " ") }
        }
        buffer.put(CellBuffer.truncate(facts, to: area.width), in: area, row: 1, style: .dim)
        let (textArea, imageArea) = detailAreas(hasImages: !note.attachments.isEmpty)
        for (row, line) in text.lines.enumerated() {
            buffer.put(line, in: textArea, row: row, style: text.isPlaceholder ? .dim : [])
        }
        if text.moreAbove { markMore("↑ more", in: &buffer, area: textArea, row: 0) }
        if text.moreBelow { markMore("↓ more", in: &buffer, area: textArea, row: textArea.height - 1) }
        guard imageArea != nil else { return }
        drawDetailImages(of: note, selected: state.attachment, into: &buffer)
    }

    /// A reversed marker at the right end of a row, saying the text goes on beyond the area.
    private func markMore(_ text: String, in buffer: inout CellBuffer, area: Rect, row: Int) {
        let marker = " \(text) "
        buffer.put(marker, in: area, row: row, indent: max(0, area.width - DisplayWidth.of(marker)), style: .reverse)
    }
}
