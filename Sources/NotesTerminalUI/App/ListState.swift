import UnCloudNotesKit

/// The list screen's state: the notes listed, the selection, the search and the order. Every
/// other screen goes back to it.
struct ListState {
    /// The IDs listed and the rows read so far.
    var notes = NoteList()
    var selected = 0
    /// The first visible row, kept so the list scrolls only as far as the selection needs.
    var listTop = 0
    /// While typing a search; the filter applies as it is typed.
    var searchInput: TextBuffer?
    var searchText = ""
    /// The search typed last runs in the background until its full answer is taken.
    var searchPending = false
    /// How many notes the store holds (the status line).
    var noteCount = 0
    /// The order (`s`): by creation or (v5) modification date, pinned notes first.
    var sort = NoteSort.created
    /// v5: only notes with this tag (`t`).
    var tagFilter: String?

    var selectedNoteID: NoteID? {
        guard selected >= 0, selected < notes.count else { return nil }
        return notes.ids[selected]
    }

    /// What the list shows: the search, the tag picked and the order.
    var query: NoteQuery { NoteQuery(search: searchText, tag: tagFilter, sort: sort) }

    /// The list's moving keys, by a row, a page of `page` rows, to the ends.
    /// - Returns: false for any other key, which the list's other keys take.
    mutating func moved(_ key: Key, page: Int) -> Bool {
        let last = max(0, notes.count - 1)
        switch key {
        case .up, .character("k"): selected = max(0, selected - 1)
        case .down, .character("j"): selected = min(last, selected + 1)
        case .pageUp: selected = max(0, selected - page)
        case .pageDown: selected = min(last, selected + page)
        case .home, .character("g"): selected = 0
        case .end, .character("G"): selected = last
        default: return false
        }
        return true
    }

    /// What a key in the search field decided.
    enum SearchStep {
        /// Esc: the search is cleared.
        case cleared
        /// Enter: the field closes, its filter stays.
        case closed
        /// The text changed: search again (from the first row).
        case changed
        /// The cursor moved: nothing to search again.
        case unchanged
    }

    /// The search field's reducer (while `searchInput` is open).
    mutating func typeInSearch(_ key: Key) -> SearchStep {
        guard var input = searchInput else { return .unchanged }
        switch key {
        case .escape:
            searchInput = nil
            searchText = ""
            return .cleared
        case .enter:
            searchInput = nil
            return .closed
        default:
            let before = input.text
            input.edit(key)
            searchInput = input
            // Moving the cursor changes no query: only a changed text searches again.
            guard input.text != before else { return .unchanged }
            searchText = input.text
            selected = 0
            return .changed
        }
    }

    /// Shows a background search's matches: the first page ahead of the full answer, which starts
    /// with it, so a selection made meanwhile stays put.
    mutating func showMatches(_ ids: [NoteID], isComplete: Bool) {
        notes.show(ids)
        selected = min(selected, max(0, notes.count - 1))
        if isComplete { searchPending = false }
    }

    /// Shows the list read again, keeping the selection on `noteID` when it is listed.
    mutating func show(_ ids: [NoteID], total: Int, selecting noteID: NoteID?) {
        searchPending = false
        notes = NoteList(ids: ids)
        noteCount = total
        if let noteID, let index = ids.firstIndex(of: noteID) {
            selected = index
        } else {
            selected = min(selected, max(0, notes.count - 1))
        }
    }
}
