import Foundation
import UnCloudNotesKit

extension NotesApp {
    /// Below this the app shows only a "too small" message.
    public static let minimumSize = (columns: 50, rows: 12)
}

extension NotesFrame {
    /// Draws the screen: a pure function of the frame.
    public func render() -> CellBuffer {
        var buffer = CellBuffer(width: size.columns, height: size.rows)
        guard !isTooSmall else {
            drawTooSmall(into: &buffer)
            return buffer
        }
        if let banner {
            buffer.clear(row: 0, column: 0, width: buffer.width, height: 1, style: .reverse)
            buffer.put(" " + CellBuffer.truncate(banner, to: buffer.width - 2), row: 0, column: 0, style: [.reverse, .bold])
        }
        draw(model.screen, into: &buffer, area: contentArea)
        drawStatus(into: &buffer, row: size.rows - 2)
        drawHints(into: &buffer, row: size.rows - 1)
        return buffer
    }

    private func draw(_ screen: NotesState.Screen, into buffer: inout CellBuffer, area: Rect) {
        switch screen {
        case .list: drawList(into: &buffer, area: area)
        case .detail(let state): drawDetail(state, into: &buffer, area: area)
        case .editor(let state): drawEditor(state, into: &buffer, area: area)
        case .prompt(let state):
            draw(state.previous, into: &buffer, area: area)
            // A picture is drawn over the text after it, so it would hide the question.
            buffer.removePictures()
            drawPrompt(state, into: &buffer, area: area)
        case .confirm(let state):
            draw(state.previous, into: &buffer, area: area)
            buffer.removePictures()
            drawConfirm(state, into: &buffer, area: area)
        case .help(let state): drawHelp(state, into: &buffer, area: area)
        case .tagPicker(let state): drawTagPicker(state, into: &buffer, area: area)
        }
    }

    private var isListScreen: Bool {
        if case .list = model.screen { return true }
        return false
    }

    private func drawTooSmall(into buffer: inout CellBuffer) {
        let lines = ["Terminal too small", "need \(NotesApp.minimumSize.columns)x\(NotesApp.minimumSize.rows), have \(buffer.width)x\(buffer.height)",
                     isListScreen ? "make it larger, or press q" : "make it larger; keys wait until then"]
        let top = max(0, (buffer.height - lines.count) / 2)
        for (index, line) in lines.enumerated() {
            let text = CellBuffer.truncate(line, to: buffer.width)
            buffer.put(text, row: top + index, column: max(0, (buffer.width - DisplayWidth.of(text)) / 2),
                       style: index == 0 ? .bold : [])
        }
    }

    /// Store path, model version, number of notes, the last sync (first, a read-only store
    /// says so); or the latest message. A message too long for
    /// the line (a kept draft's path) is wrapped whole over the rows above it, never cut: the
    /// path must be readable to be found.
    private func drawStatus(into buffer: inout CellBuffer, row: Int) {
        let undo = (model.undoable != nil) ? "u undoes the delete · " : ""
        let synced = model.lastSync.map { "\($0) · " } ?? ""
        let readOnly = model.storeIsReadOnly ? "read-only store: changes cannot be saved · " : ""
        let facts = "\(readOnly)\(undo)\(model.listScreen.noteCount) note\(model.listScreen.noteCount == 1 ? "" : "s") · \(versionLabel) · \(synced)\(storePath)"
        let text = model.message.map { "\($0)  —  \(facts)" } ?? facts
        guard let message = model.message, DisplayWidth.of(message) > buffer.width - 2 else {
            buffer.clear(row: row, column: 0, width: buffer.width, height: 1, style: .reverse)
            buffer.put(" " + CellBuffer.truncate(text, to: buffer.width - 2), row: row, column: 0, style: .reverse)
            return
        }
        let lines = TextWrapper.wrap(Array(message), width: buffer.width - 2).map(\.text).suffix(row)
        let top = row - lines.count + 1
        buffer.clear(row: top, column: 0, width: buffer.width, height: lines.count, style: .reverse)
        for (index, line) in lines.enumerated() {
            buffer.put(" " + line, row: top + index, column: 0, style: .reverse)
        }
    }

    /// The screen's keymap's hints, most important first, as many as fit whole: a narrow terminal
    /// drops the last ones instead of cutting one in half.
    private func drawHints(into buffer: inout CellBuffer, row: Int) {
        var line = ""
        for (key, meaning) in keymap(of: model.screen, searching: model.listScreen.searchInput != nil).hints {
            let hint = (line.isEmpty ? "" : "  ") + key + " " + meaning
            if DisplayWidth.of(line + hint) <= buffer.width { line += hint }
        }
        buffer.put(line, row: row, column: 0, style: .dim)
    }

    /// Where a preview goes: its cells, or a line saying it is on its way or cannot be shown.
    func placePreview(_ preview: RenderedPreview?, into buffer: inout CellBuffer, area: Rect, top: Int) {
        switch preview {
        case nil:
            buffer.put("(loading the image)", in: area, row: top, style: .dim)
        case .hidden:
            buffer.put("(images are off: --images none)", in: area, row: top, style: .dim)
        case .picture(let picture):
            buffer.placePicture(picture, row: area.top + top, column: area.left)
        case .cells(let cells):
            if cells.isEmpty { buffer.put("(this image cannot be shown)", in: area, row: top, style: .dim) }
            buffer.placeImage(cells, row: area.top + top, column: area.left)
        }
    }
}
