import Foundation
import UnCloudNotesKit

extension NotesFrame {
    /// The notes list (newest first), with the selected note's body and latest image beside it
    /// when the terminal is wide, or below it when it is tall.
    func drawList(into buffer: inout CellBuffer, area: Rect) {
        var header = model.listScreen.searchInput != nil || !model.listScreen.searchText.isEmpty
            ? "Search: \(model.listScreen.searchInput.map(\.textWithCursor) ?? model.listScreen.searchText)  (\(model.listScreen.searchPending ? "searching" : "\(model.listScreen.notes.count) found"))"
            : "Notes"
        if let tagFilter = model.listScreen.tagFilter { header += " · tag \(tagFilter) (\(model.listScreen.notes.count))" }
        if supportsTags { header += " · by date \(model.listScreen.sort == .created ? "created" : "modified")" }
        buffer.put(CellBuffer.truncate(header, to: area.width), in: area, row: 0, style: .bold)
        let (listArea, previewFrame) = listLayout
        drawRows(into: &buffer, area: listArea)
        if let previewFrame, let note = shownNote, let text = shownText {
            // Framed and titled with the note, so the preview never reads as the first row's.
            buffer.drawFrame(previewFrame, title: note.title)
            drawPreview(note, text, into: &buffer, area: previewFrame.inset(by: 1))
        }
    }

    private func drawRows(into buffer: inout CellBuffer, area: Rect) {
        guard model.listScreen.notes.count > 0 else {
            let empty = !model.listScreen.searchText.isEmpty ? "No note matches “\(model.listScreen.searchText)”."
                : model.listScreen.tagFilter.map { "No note has the tag “\($0)”: Esc shows all notes." } ?? "No notes yet: press n to write one."
            buffer.put(CellBuffer.truncate(empty, to: area.width), in: area, row: 0, style: .dim)
            return
        }
        for (row, note) in visibleRows.enumerated() {
            guard let note else { continue }
            let index = listTop + row
            let isSelected = index == model.listScreen.selected
            let style: CellStyle = isSelected ? .reverse : []
            if isSelected { buffer.clear(row: area.top + row, column: area.left, width: area.width, height: 1, style: .reverse) }
            let count = note.imageCount
            let marker = count == 0 ? "" : (count == 1 ? " [img]" : " [\(count) img]")
            let date = model.dates(note.date(sortedBy: model.listScreen.sort))
            // Tags before the images, cut to a third of the row so the title keeps its room.
            let tags = note.tags.isEmpty ? "" : " " + CellBuffer.truncate(note.tags.map { "#" + $0 }.joined(separator: " "), to: max(6, area.width / 3))
            // Pinned notes (v5) are marked at the row's end, so titles stay aligned.
            let right = (note.pinned ? " [pin]" : "") + tags + marker + "  " + date
            let titleWidth = max(4, area.width - DisplayWidth.of(right) - 2)
            let title = note.title
            // The marker shows the selection without colour or reverse video too.
            buffer.put((isSelected ? "›" : " ") + CellBuffer.truncate(title, to: titleWidth), in: area, row: row, style: style.union(.bold))
            let rightStart = max(0, area.width - DisplayWidth.of(right) - 1)
            buffer.put(right, in: area, row: row, indent: rightStart, style: style)
        }
    }

    /// The body's first lines and a thumbnail of the latest image.
    private func drawPreview(_ note: NoteSnapshot, _ text: ShownText, into buffer: inout CellBuffer, area: Rect) {
        for (row, line) in text.lines.enumerated() {
            buffer.put(line, in: area, row: row, style: text.isPlaceholder ? .dim : [])
        }
        guard note.latestAttachment?.imageData != nil, let place = previewImageRows(in: area) else { return }
        placePreview(image, into: &buffer, area: area, top: place.top)
    }
}
