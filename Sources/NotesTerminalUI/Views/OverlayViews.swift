extension NotesFrame {
    /// The attach (or caption) prompt at the bottom of the screen, with its error and completions.
    func drawPrompt(_ state: NotesState.PromptState, into buffer: inout CellBuffer, area: Rect) {
        let top = area.bottom - 4
        buffer.clear(row: top, column: area.left, width: area.width, height: 4)
        buffer.put(String(repeating: "─", count: area.width), row: top, column: area.left, style: .dim)
        let label: String
        switch state.purpose {
        case .attachImage: label = "Attach image (path): "
        case .caption, .newImageCaption: label = "Caption: "
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
    func drawConfirm(_ state: NotesState.ConfirmState, into buffer: inout CellBuffer, area: Rect) {
        let text = CellBuffer.truncate(state.question, to: area.width - 6)
        let width = DisplayWidth.of(text) + 4
        let left = area.left + max(0, (area.width - width) / 2)
        let top = area.top + max(0, area.height / 2 - 1)
        buffer.clear(row: top, column: left, width: width, height: 3, style: .reverse)
        buffer.put(text, row: top + 1, column: left + 2, style: [.reverse, .bold])
    }

    /// The keys of the version, scrolled; the last row says when more is below.
    func drawHelp(_ state: NotesState.HelpState, into buffer: inout CellBuffer, area: Rect) {
        let lines = helpLines
        let fitsWhole = lines.count <= area.height
        let rows = helpRows
        let scroll = min(state.scroll, helpMaxScroll)
        for (row, line) in lines.dropFirst(scroll).prefix(rows).enumerated() {
            buffer.put(line, in: area, row: row, style: row + scroll == 0 ? .bold : [])
        }
        if !fitsWhole {
            let scrolling = NotesState.HelpState.keys.hints.first.map { " \($0.keys) \($0.label)" } ?? ""
            let more = scroll < helpMaxScroll ? "↓ more below:\(scrolling)" : "(end of help)"
            buffer.put(CellBuffer.truncate(more, to: area.width), in: area, row: rows, style: .dim)
        }
    }
}

extension NotesFrame {
    /// v5's tag picker: "All notes", then each tag with its count; the one chosen filters the list.
    func drawTagPicker(_ state: NotesState.TagPickerState, into buffer: inout CellBuffer, area: Rect) {
        buffer.put("Show the notes of a tag", in: area, row: 0, style: .bold)
        let entries = ["All notes"] + state.tags.map { "\($0.name)  (\($0.count))" }
        let rows = max(1, area.height - 2)
        let top = max(0, min(state.selected - rows + 1, entries.count - rows))
        for (offset, entry) in entries.dropFirst(top).prefix(rows).enumerated() {
            let index = top + offset
            let isSelected = index == state.selected
            if isSelected { buffer.clear(row: area.top + 2 + offset, column: area.left, width: area.width, height: 1, style: .reverse) }
            buffer.put((isSelected ? "›" : " ") + CellBuffer.truncate(entry, to: area.width - 1), in: area, row: 2 + offset,
                       style: isSelected ? .reverse : [])
        }
    }
}
