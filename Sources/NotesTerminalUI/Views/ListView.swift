import Foundation
import UnCloudNotesKit

extension NotesApp {
    /// The notes list (newest first), with the selected note's body and latest image beside it
    /// when the terminal is wide, or below it when it is tall.
    func drawList(into buffer: inout CellBuffer, area: Rect) {
        let header = searchInput != nil || !searchText.isEmpty
            ? "Search: \(searchInput?.text ?? searchText)\(searchInput != nil ? "▏" : "")  (\(searchPending ? "searching" : "\(list.count) found"))"
            : "Notes"
        buffer.put(CellBuffer.truncate(header, to: area.width), in: area, row: 0, style: .bold)
        let body = Rect(top: area.top + 1, left: area.left, width: area.width, height: area.height - 1)
        let wide = body.width >= 100, tall = body.height >= 30
        let listArea: Rect, previewArea: Rect?
        if wide {
            let listWidth = body.width * 11 / 20
            listArea = Rect(top: body.top, left: body.left, width: listWidth, height: body.height)
            previewArea = Rect(top: body.top, left: body.left + listWidth + 2, width: body.width - listWidth - 2, height: body.height)
        } else if tall {
            let listHeight = body.height / 2
            listArea = Rect(top: body.top, left: body.left, width: body.width, height: listHeight)
            previewArea = Rect(top: body.top + listHeight + 1, left: body.left, width: body.width, height: body.height - listHeight - 1)
        } else {
            listArea = body
            previewArea = nil
        }
        drawRows(into: &buffer, area: listArea)
        if let previewArea, let note = selectedNoteID.flatMap(snapshot) {
            drawPreview(note, into: &buffer, area: previewArea)
        }
    }

    private func drawRows(into buffer: inout CellBuffer, area: Rect) {
        lastListHeight = area.height
        guard list.count > 0 else {
            let empty = searchText.isEmpty ? "No notes yet: press n to write one." : "No note matches “\(searchText)”."
            buffer.put(CellBuffer.truncate(empty, to: area.width), in: area, row: 0, style: .dim)
            return
        }
        if selected < listTop { listTop = selected }
        if selected >= listTop + area.height { listTop = selected - area.height + 1 }
        listTop = max(0, min(listTop, max(0, list.count - area.height)))
        for row in 0..<min(area.height, list.count - listTop) {
            let index = listTop + row
            guard let note = self.row(at: index) else { continue }
            let isSelected = index == selected
            let style: CellStyle = isSelected ? .reverse : []
            if isSelected { buffer.clear(row: area.top + row, column: area.left, width: area.width, height: 1, style: .reverse) }
            let count = note.imageCount
            let marker = count == 0 ? "" : (count == 1 ? " [img]" : " [\(count) img]")
            let date = formatted(note.dateCreated)
            let right = marker + "  " + date
            let titleWidth = max(4, area.width - DisplayWidth.of(right) - 2)
            let title = note.title
            // The marker shows the selection without colour or reverse video too.
            buffer.put((isSelected ? "›" : " ") + CellBuffer.truncate(title, to: titleWidth), in: area, row: row, style: style.union(.bold))
            let rightStart = max(0, area.width - DisplayWidth.of(right) - 1)
            buffer.put(right, in: area, row: row, indent: rightStart, style: style)
        }
    }

    /// The body's first lines and a thumbnail of the latest image.
    private func drawPreview(_ note: NoteSnapshot, into buffer: inout CellBuffer, area: Rect) {
        guard area.width > 4, area.height > 2 else { return }
        let hasImage = note.latestAttachment?.imageData != nil
        let textRows = hasImage ? min(max(2, area.height / 3), area.height) : area.height
        let lines = TextWrapper.wrap(Array(note.body.isEmpty ? "(no text)" : note.body), width: area.width)
        for (row, line) in lines.prefix(textRows).enumerated() {
            buffer.put(line.text, in: area, row: row, style: note.body.isEmpty ? .dim : [])
        }
        guard hasImage, let latest = note.latestAttachment else { return }
        let imageRows = area.height - textRows - 1
        guard imageRows >= 3 else { return }
        let cells = preview(latest, note: note, index: note.attachments.count - 1, columns: area.width, rows: imageRows)
        placePreview(cells, into: &buffer, area: area, top: textRows + 1)
    }
}
