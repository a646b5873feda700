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
    /// The note to select once the whole list arrives, when its first page did not list it;
    /// dropped when the user moves or searches meanwhile.
    var pendingSelection: NoteID?
    /// The list shown is a first page whose rest is on its way (`awaitRest`).
    var awaitingRest = false
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

    /// Where the list's moving keys take the selection (`listKeys`).
    enum Move: Equatable { case up, down, pageUp, pageDown, first, last }

    /// Moves the selection by a row, a page of `page` rows, or to an end.
    mutating func move(_ move: Move, page: Int) {
        pendingSelection = nil
        let last = max(0, notes.count - 1)
        switch move {
        case .up: selected = max(0, selected - 1)
        case .down: selected = min(last, selected + 1)
        case .pageUp: selected = max(0, selected - page)
        case .pageDown: selected = min(last, selected + page)
        case .first: selected = 0
        case .last: selected = last
        }
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
        switch Self.searchKeys.action(for: key) {
        case .clear:
            searchInput = nil
            searchText = ""
            return .cleared
        case .keep:
            searchInput = nil
            return .closed
        case .type(let key):
            let before = input.text
            input.edit(key)
            searchInput = input
            // Moving the cursor changes no query: only a changed text searches again.
            guard input.text != before else { return .unchanged }
            searchText = input.text
            awaitingRest = false
            pendingSelection = nil
            selected = 0
            return .changed
        case nil:
            return .unchanged
        }
    }

    /// Shows a background search's matches: the first page ahead of the full answer, which starts
    /// with it, so a selection made meanwhile stays put.
    /// The selected note stays selected where the answer lists it (by ID, not by row).
    mutating func showMatches(_ ids: [NoteID], isComplete: Bool) {
        let current = selectedNoteID
        notes.show(ids)
        if let current, let index = ids.firstIndex(of: current) {
            selected = index
        } else {
            selected = min(selected, max(0, notes.count - 1))
        }
        guard isComplete else { return }
        searchPending = false
        awaitingRest = false
        if let pending = pendingSelection.take(), let index = ids.firstIndex(of: pending) { selected = index }
    }

    /// The rest of the list could not be read: the first page shown stays, and the list is not
    /// awaited any more.
    mutating func restFailed() {
        searchPending = false
        awaitingRest = false
        pendingSelection = nil
    }

    /// The list's first page is shown and the rest is on its way: it arrives as a search's
    /// answer, and then selects `noteID` if the first page did not hold it.
    mutating func awaitRest(selecting noteID: NoteID?) {
        searchPending = true
        awaitingRest = true
        pendingSelection = noteID.flatMap { notes.ids.contains($0) ? nil : $0 }
    }

    /// Shows the list read again, keeping the selection on `noteID` when it is listed; `total`
    /// when the notes were counted again.
    mutating func show(_ ids: [NoteID], total: Int?, selecting noteID: NoteID?) {
        searchPending = false
        awaitingRest = false
        pendingSelection = nil
        notes = NoteList(ids: ids)
        if let total { noteCount = total }
        if let noteID, let index = ids.firstIndex(of: noteID) {
            selected = index
        } else {
            selected = min(selected, max(0, notes.count - 1))
        }
    }
}
