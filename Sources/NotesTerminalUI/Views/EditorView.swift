extension NotesFrame {
    /// The title field and the wrapped body with its cursor.
    func drawEditor(_ state: NotesState.EditorState, into buffer: inout CellBuffer, area: Rect) {
        buffer.put(state.noteID == nil ? "New note" : "Edit note", in: area, row: 0, style: .bold)
        let label = "Title: "
        buffer.put(label, in: area, row: 2, style: state.focus == .title ? .bold : [])
        let fieldWidth = area.width - DisplayWidth.of(label) - 1
        drawField(state.title, focused: state.focus == .title, into: &buffer, row: area.top + 2,
                  column: area.left + DisplayWidth.of(label), width: fieldWidth)
        var row = 3
        if let tags = state.tags {
            // v5: the note's tags, comma-separated.
            let tagsLabel = "Tags:  "
            buffer.put(tagsLabel, in: area, row: row, style: state.focus == .tags ? .bold : [])
            drawField(tags, focused: state.focus == .tags, into: &buffer, row: area.top + row,
                      column: area.left + DisplayWidth.of(tagsLabel), width: area.width - DisplayWidth.of(tagsLabel) - 1)
            row += 1
        }
        buffer.put(String(repeating: "─", count: area.width), in: area, row: row, style: .dim)
        buffer.put("Body:", in: area, row: row + 1, style: state.focusOnBody ? .bold : [])
        let bodyArea = editorBodyArea
        // Only the lines around the cursor are laid out, however long the body.
        let layout = TextLayout(state.body.characters, width: editorWrapWidth)
        let cursorLine = layout.line(containing: state.body.cursor)
        // The body scrolls once the cursor passes the last row, keeping it there.
        var top = cursorLine
        var cursorRow = 0
        while cursorRow < bodyArea.height - 1, let earlier = layout.line(before: top) {
            top = earlier
            cursorRow += 1
        }
        for (row, line) in layout.lines(from: top, count: bodyArea.height).enumerated() {
            buffer.put(layout.string(of: line), in: bodyArea, row: row)
        }
        if state.focusOnBody {
            markCursor(in: &buffer, row: bodyArea.top + cursorRow, column: bodyArea.left + layout.column(of: state.body.cursor, in: cursorLine))
        }
    }

    /// A one-line field, scrolled so its cursor shows.
    func drawField(_ field: TextBuffer, focused: Bool, into buffer: inout CellBuffer, row: Int, column: Int, width: Int) {
        let characters = field.characters
        var start = 0
        while DisplayWidth.of(String(characters[start..<field.cursor])) >= width, start < field.cursor { start += 1 }
        buffer.put(String(characters[start...]), row: row, column: column, style: .underline, maxColumn: column + width)
        if focused {
            markCursor(in: &buffer, row: row, column: column + DisplayWidth.of(String(characters[start..<field.cursor])))
        }
    }

    /// Shows the cursor as a reversed cell (the terminal's cursor stays hidden); a wide character
    /// under it is reversed whole, never split.
    private func markCursor(in buffer: inout CellBuffer, row: Int, column: Int) {
        buffer.addStyle(.reverse, row: row, column: column)
    }
}
