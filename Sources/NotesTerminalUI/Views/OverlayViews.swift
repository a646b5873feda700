extension NotesApp {
    /// The attach (or caption) prompt at the bottom of the screen, with its error and completions.
    func drawPrompt(_ state: PromptState, into buffer: inout CellBuffer, area: Rect) {
        let top = area.bottom - 4
        buffer.clear(row: top, column: area.left, width: area.width, height: 4)
        buffer.put(String(repeating: "─", count: area.width), row: top, column: area.left, style: .dim)
        let label: String
        switch state.purpose {
        case .attachImage: label = "Attach image (path): "
        case .caption: label = "Caption: "
        }
        buffer.put(label, row: top + 1, column: area.left, style: .bold)
        let start = area.left + DisplayWidth.of(label)
        drawField(state.input, focused: true, into: &buffer, row: top + 1, column: start, width: area.width - DisplayWidth.of(label) - 1)
        if let error = state.error {
            buffer.put(CellBuffer.truncate(error, to: area.width), row: top + 2, column: area.left, style: .bold, foreground: .palette(1))
        } else if !state.completions.isEmpty {
            buffer.put(CellBuffer.truncate(state.completions.joined(separator: "  "), to: area.width), row: top + 2, column: area.left, style: .dim)
        }
    }

    /// A centred yes/no question.
    func drawConfirm(_ state: ConfirmState, into buffer: inout CellBuffer, area: Rect) {
        let text = CellBuffer.truncate(state.question, to: area.width - 6)
        let width = DisplayWidth.of(text) + 4
        let left = area.left + max(0, (area.width - width) / 2)
        let top = area.top + max(0, area.height / 2 - 1)
        buffer.clear(row: top, column: left, width: width, height: 3, style: .reverse)
        buffer.put(text, row: top + 1, column: left + 2, style: [.reverse, .bold])
    }

    func drawHelp(into buffer: inout CellBuffer, area: Rect) {
        var lines = ["Keys", "", "Notes list",
                     "  ↑ ↓  j k        move            PgUp PgDn  Home End   page, first, last",
                     "  Enter           open the note   n          new note",
                     "  e               edit            d          delete (asks first)",
                     "  /               search titles and bodies as you type; Esc clears",
                     "  q  Ctrl-C       quit"]
        if supportsImages { lines.insert("  a               attach an image (path prompt: Tab completes, ~ works)", at: 7) }
        lines += ["", "Note", "  ↑ ↓  PgUp PgDn  scroll the body        e  edit    d  delete    Esc  back"]
        if supportsImages { lines.append("  ← →  [ ]        previous, next image    a  attach  x  delete the image") }
        if supportsCaptions { lines.append("  c               edit the image's caption") }
        lines += ["", "Editor",
                  "  Tab             title / body     Ctrl-S  save     Esc  cancel (asks before discarding)",
                  "  Ctrl-E          edit the body in $VISUAL or $EDITOR, then come back",
                  "", "Running as \(versionLabel). Store: \(storePath)"]
        for (row, line) in lines.prefix(area.height).enumerated() {
            buffer.put(CellBuffer.truncate(line, to: area.width), in: area, row: row, style: row == 0 ? .bold : [])
        }
    }
}
