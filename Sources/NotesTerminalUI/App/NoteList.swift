import UnCloudNotesKit

/// The notes the list shows, newest first: every ID (cheap, even for a million notes) and the
/// rows read so far, a window at a time, as the list scrolls over them.
struct NoteList {
    private(set) var ids: [NoteID]
    private var rows: [NoteID: NoteRow] = [:]
    /// Rows whose read failed: shown blank, not asked for again until the list is read again.
    private var unreadable: Set<NoteID> = []

    init(ids: [NoteID] = []) {
        self.ids = ids
    }

    var count: Int { ids.count }

    /// The rows read for the IDs in `range`; nil for those not read yet.
    func row(at index: Int) -> NoteRow? {
        guard ids.indices.contains(index) else { return nil }
        return rows[ids[index]]
    }

    /// The IDs in `range` whose rows are not read yet (leaving out those that cannot be read).
    func missingRows(in range: Range<Int>) -> [NoteID] {
        ids[range.clamped(to: ids.indices)].filter { rows[$0] == nil && !unreadable.contains($0) }
    }

    mutating func remember(_ read: [NoteRow]) {
        for row in read { rows[row.id] = row }
    }

    mutating func rememberUnreadable(_ ids: [NoteID]) {
        unreadable.formUnion(ids)
    }

    /// Forgets the row of a note the app changed, so it is read again.
    mutating func forget(_ id: NoteID) {
        rows[id] = nil
        unreadable.remove(id)
    }

    /// Other notes in the list (a search's answer), keeping the rows read: the store has not
    /// changed, so a keystroke does not read again the rows it shows.
    mutating func show(_ ids: [NoteID]) {
        self.ids = ids
    }
}
