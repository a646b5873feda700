import Foundation
import UnCloudNotesKit

extension NotesApp {
    /// Below this the app shows only a "too small" message.
    public static let minimumSize = (columns: 50, rows: 12)

    /// Draws the current screen at the given size.
    public func render(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        guard width >= Self.minimumSize.columns, height >= Self.minimumSize.rows else {
            drawTooSmall(into: &buffer)
            return buffer
        }
        let content = Rect(top: 0, left: 0, width: width, height: height - 2)
        draw(screen, into: &buffer, area: content)
        drawStatus(into: &buffer, row: height - 2)
        drawHints(into: &buffer, row: height - 1)
        return buffer
    }

    private func draw(_ screen: Screen, into buffer: inout CellBuffer, area: Rect) {
        switch screen {
        case .list: drawList(into: &buffer, area: area)
        case .detail(let state): drawDetail(state, into: &buffer, area: area)
        case .editor(let state): drawEditor(state, into: &buffer, area: area)
        case .prompt(let state):
            draw(state.previous, into: &buffer, area: area)
            drawPrompt(state, into: &buffer, area: area)
        case .confirm(let state):
            draw(state.previous, into: &buffer, area: area)
            drawConfirm(state, into: &buffer, area: area)
        case .help: drawHelp(into: &buffer, area: area)
        }
    }

    private func drawTooSmall(into buffer: inout CellBuffer) {
        let lines = ["Terminal too small", "need \(Self.minimumSize.columns)x\(Self.minimumSize.rows), have \(buffer.width)x\(buffer.height)",
                     "make it larger, or press q"]
        let top = max(0, (buffer.height - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            let text = CellBuffer.truncate(line, to: buffer.width)
            buffer.put(text, row: top + index, column: max(0, (buffer.width - DisplayWidth.of(text)) / 2),
                       style: index == 0 ? .bold : [])
        }
    }

    /// Store path, model version, number of notes; or the latest message.
    private func drawStatus(into buffer: inout CellBuffer, row: Int) {
        buffer.clear(row: row, column: 0, width: buffer.width, height: 1, style: .reverse)
        let facts = "\(noteCount) note\(noteCount == 1 ? "" : "s") · \(versionLabel) · \(storePath)"
        let text = message.map { "\($0)  —  \(facts)" } ?? facts
        buffer.put(" " + CellBuffer.truncate(text, to: buffer.width - 2), row: row, column: 0, style: .reverse)
    }

    private func drawHints(into buffer: inout CellBuffer, row: Int) {
        let hints = keyHints(for: screen).map { "\($0.0) \($0.1)" }.joined(separator: "  ")
        buffer.put(CellBuffer.truncate(hints, to: buffer.width), row: row, column: 0, style: .dim)
    }

    /// The one-line hint bar: the keys of the current screen.
    func keyHints(for screen: Screen) -> [(String, String)] {
        switch screen {
        case .list where searchInput != nil:
            return [("type", "to search"), ("Enter", "keep"), ("Esc", "clear")]
        case .list:
            var hints = [("↑↓", "move"), ("Enter", "open"), ("n", "new"), ("e", "edit"), ("d", "delete")]
            if supportsImages { hints.append(("a", "attach")) }
            return hints + [("/", "search"), ("?", "help"), ("q", "quit")]
        case .detail:
            var hints = [("↑↓", "scroll"), ("e", "edit")]
            if supportsImages { hints += [("a", "attach"), ("←→", "images"), ("x", "delete image")] }
            if supportsCaptions { hints.append(("c", "caption")) }
            return hints + [("d", "delete"), ("Esc", "back")]
        case .editor:
            return [("Tab", "title/body"), ("Ctrl-S", "save"), ("Esc", "cancel"), ("Ctrl-E", "$EDITOR")]
        case .prompt(let state):
            if case .attachImage = state.purpose { return [("Enter", "attach"), ("Tab", "complete"), ("Esc", "cancel")] }
            return [("Enter", "save"), ("Esc", "cancel")]
        case .confirm:
            return [("y", "yes"), ("any other key", "no")]
        case .help:
            return [("any key", "back")]
        }
    }

    func formatted(_ date: Date?) -> String {
        date.map { dates.string(from: $0) } ?? "—"
    }

    /// A cached image preview of a note's attachment.
    func preview(_ attachment: AttachmentSnapshot, note: NoteSnapshot, index: Int, columns: Int, rows: Int) -> [[Cell]] {
        guard let data = attachment.imageData else { return [] }
        let key = "\(note.id)#\(index)#\(data.count)#\(columns)x\(rows)"
        return previews.cells(key: key) {
            (try? ImagePreview.cells(for: NoteImage(storedData: data), columns: columns, rows: rows, colors: colors)) ?? []
        }
    }

    func place(_ cells: [[Cell]], into buffer: inout CellBuffer, top: Int, left: Int) {
        for (y, row) in cells.enumerated() {
            for (x, cell) in row.enumerated() { buffer.place(cell, row: top + y, column: left + x) }
        }
    }
}
