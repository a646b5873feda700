import UnCloudNotesKit

/// A note's body as the detail view and the list preview show it: laid out only as far as the
/// screen shows (`TextLayout`, kept in `bodyLayouts`). The detail view's scroll position is the
/// offset of its first line in the body, not a line number, so no key needs the lines above it
/// counted, and a resize keeps the same text in view.
extension NotesState {
    /// The detail view's body at the width of its area, and the rows it has.
    private mutating func detailLayout(of note: NoteSnapshot) -> (layout: TextLayout<String>, rows: Int) {
        let area = detailAreas(hasImages: !note.attachments.isEmpty).text
        return (bodyLayouts.layout(of: note, width: area.width), area.height)
    }

    /// What the detail view shows from the line at `top`, pulled up to the last screenful.
    func detailText(of note: NoteSnapshot, top: Int) -> ShownText {
        let area = detailAreas(hasImages: !note.attachments.isEmpty).text
        let layout = bodyLayouts.kept(note, width: area.width)
        return ShownText(layout.screenful(from: layout.text.position(atOrBefore: top), rows: area.height), of: layout, note: note)
    }

    /// The detail view's top after scrolling `steps` lines (down when positive); scrolling stops
    /// at the last screenful instead of counting on past the end.
    mutating func detailTop(of note: NoteSnapshot, from top: Int, scrolledBy steps: Int) -> Int {
        let (layout, rows) = detailLayout(of: note)
        let first = layout.line(containing: layout.text.position(atOrBefore: top))
        return topOffset(of: layout.screenful(from: layout.line(first, movedBy: steps).start, rows: rows), in: layout)
    }

    /// The detail view's top when it shows the body's last screenful.
    mutating func detailBottom(of note: NoteSnapshot) -> Int {
        let (layout, rows) = detailLayout(of: note)
        return topOffset(of: layout.screenful(from: layout.lastLine.start, rows: rows), in: layout)
    }

    /// The first lines of the note's body, as the list's preview shows them above its image.
    func previewText(of note: NoteSnapshot, in area: Rect) -> ShownText {
        let layout = bodyLayouts.kept(note, width: area.width)
        let rows = previewTextRows(in: area, hasImage: note.latestAttachment?.imageData != nil)
        return ShownText(layout.screenful(from: layout.text.startIndex, rows: rows), of: layout, note: note)
    }

    /// Keeps the layout of the body the next frame shows (`bodyLayouts`), so the frame, which
    /// changes nothing, draws from it and a key lays out only lines not laid out before.
    mutating func keepLayoutShown() {
        guard let note = noteShown(on: screen).flatMap(snapshot) else { return }
        if case .detail = detailUnderneath(screen) {
            _ = detailLayout(of: note)
        } else if let area = listAreas.preview, area.width > 4, area.height > 2 {
            _ = bodyLayouts.layout(of: note, width: area.width)
        }
    }

    private func topOffset(of screenful: TextLayout<String>.Screenful, in layout: TextLayout<String>) -> Int {
        screenful.lines.first.map { layout.text.offset(of: $0.start) } ?? 0
    }
}

/// The lines of a note's body a screen shows, laid out before drawing, and whether the body goes
/// on above or below them.
struct ShownText {
    let lines: [String]
    let moreAbove: Bool
    let moreBelow: Bool
    /// An empty body shows a dimmed placeholder.
    let isPlaceholder: Bool

    init(_ screenful: TextLayout<String>.Screenful, of layout: TextLayout<String>, note: NoteSnapshot) {
        lines = screenful.lines.map(layout.string(of:))
        moreAbove = screenful.moreAbove
        moreBelow = screenful.moreBelow
        isPlaceholder = note.body.isEmpty
    }
}
