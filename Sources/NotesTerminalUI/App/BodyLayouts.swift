import UnCloudNotesKit

/// The layouts of the note bodies the screens show, per note and width, kept as long as the
/// notes read (until the store changes), so a key lays out only lines not laid out before and a
/// 10 MB note costs a key what a short one does.
struct BodyLayouts {
    private struct Key: Hashable {
        let note: NoteID
        let width: Int
    }

    private var layouts: [Key: TextLayout<String>] = [:]
    /// Characters measured by layouts no longer kept.
    private var measuredByDropped = 0
    /// Layouts kept at most: the detail view's and the preview's, at a size or two.
    private static let keptLayouts = 8

    /// What an empty body shows.
    static let placeholder = "(no text)"

    /// The layout of the note's body (or of the placeholder of an empty one) at `width`.
    mutating func layout(of note: NoteSnapshot, width: Int) -> TextLayout<String> {
        let key = Key(note: note.id, width: width)
        if let known = layouts[key] { return known }
        if layouts.count >= Self.keptLayouts { removeAll() }
        let layout = TextLayout(note.body.isEmpty ? Self.placeholder : note.body, width: width)
        layouts[key] = layout
        return layout
    }

    /// The kept layout of the note's body at `width`, or, when none is kept, a new one that is
    /// not kept: what the frame draws from, reading the layouts without changing them
    /// (`NotesState.prepareFrame` keeps the one the next frame shows).
    func kept(_ note: NoteSnapshot, width: Int) -> TextLayout<String> {
        layouts[Key(note: note.id, width: width)] ?? TextLayout(note.body.isEmpty ? Self.placeholder : note.body, width: width)
    }

    /// Forgets the layouts of one note, whose text changed.
    mutating func remove(_ note: NoteID) {
        for key in layouts.keys where key.note == note {
            measuredByDropped += layouts[key]?.measuredCharacters ?? 0
            layouts[key] = nil
        }
    }

    mutating func removeAll() {
        measuredByDropped = measuredCharacters
        layouts = [:]
    }

    /// Characters measured by every layout made, for tests that hold layout to what is shown.
    var measuredCharacters: Int {
        layouts.values.reduce(measuredByDropped) { $0 + $1.measuredCharacters }
    }
}
