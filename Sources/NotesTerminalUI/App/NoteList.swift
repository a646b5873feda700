import UnCloudNotesKit

/// The notes the list shows, newest first: every ID (cheap, even for a million notes) and the
/// rows read so far, a window at a time, as the list scrolls over them.
struct NoteList {
    private(set) var ids: [NoteID]
    private var rows: [NoteID: NoteRow] = [:]

    init(ids: [NoteID] = []) {
        self.ids = ids
    }

    var count: Int { ids.count }

    /// The rows read for the IDs in `range`; nil for those not read yet.
    func row(at index: Int) -> NoteRow? {
        guard ids.indices.contains(index) else { return nil }
        return rows[ids[index]]
    }

    /// The IDs in `range` whose rows are not read yet.
    func missingRows(in range: Range<Int>) -> [NoteID] {
        ids[range.clamped(to: ids.indices)].filter { rows[$0] == nil }
    }

    mutating func remember(_ read: [NoteRow]) {
        for row in read { rows[row.id] = row }
    }

    /// Other notes in the list (a search's answer), keeping the rows read: the store has not
    /// changed, so a keystroke does not read again the rows it shows.
    mutating func show(_ ids: [NoteID]) {
        self.ids = ids
    }
}
