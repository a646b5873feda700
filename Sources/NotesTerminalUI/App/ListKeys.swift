import UnCloudNotesKit

extension NotesState {
    mutating func handleList(_ key: Key) -> [NotesEffect] {
        if listScreen.searchInput != nil {
            switch listScreen.typeInSearch(key) {
            case .cleared: return [reload(counting: false)]
            case .changed: return searchAgain()
            case .closed, .unchanged: return []
            }
        }
        switch listKeys.action(for: key) {
        case .move(let move):
            // Moving changes only the list's state.
            listScreen.move(move, page: listPage)
        case .open:
            if let id = selectedNoteID { screen = .detail(DetailState(noteID: id)) }
        case .new:
            openEditor(for: nil)
        case .edit:
            guard let id = selectedNoteID else { break }
            guard let note = snapshot(of: id) else { return waitForNote(id, then: key) }
            openEditor(for: note)
        case .delete:
            guard let id = selectedNoteID else { break }
            guard let note = snapshot(of: id) else { return waitForNote(id, then: key) }
            confirmDelete(note, returningTo: .list)
        case .attach:
            guard supportsImages else {
                message = "\(NoteBookError.noImagesInThisVersion(version: versionLabel))"
                break
            }
            if let id = selectedNoteID { promptForImage(for: id, returningTo: .list) }
        case .sync:
            let sync = requestSync()
            message = sync.isEmpty ? "a sync is under way" : "syncing…"
            return sync
        case .pin:
            guard supportsTags else { return refuse(.pins) }
            guard let id = selectedNoteID else { break }
            // The row on screen knows the pin: no read of the whole note (its body, its images).
            if let row = listScreen.notes.row(at: listScreen.selected), row.id == id { return [.setPinned(!row.pinned, id)] }
            guard let note = snapshot(of: id) else { return waitForNote(id, then: key) }
            return [.setPinned(!note.pinned, id)]
        case .sort:
            guard supportsTags else { return refuse(.modifiedDates) }
            listScreen.sort = listScreen.sort.toggled
            message = "sorted by date \(listScreen.sort == .created ? "created" : "modified"), pinned first"
            return [reload(counting: false)]
        case .tags:
            guard supportsTags else { return refuse(.tags) }
            // The picker opens when the tags are read (`.tagsRead`).
            return [.readTags]
        case .undo:
            guard let undoable else {
                message = "nothing to undo: u brings back a note deleted with d, until the next change"
                break
            }
            self.undoable = nil
            return [.restore(undoable)]
        case .search:
            listScreen.searchInput = TextBuffer(listScreen.searchText, allowsNewlines: false)
        case .clearFilters:
            if !listScreen.searchText.isEmpty {
                listScreen.searchText = ""
                return [reload(counting: false)]
            }
            if listScreen.tagFilter != nil {
                listScreen.tagFilter = nil
                return [reload(counting: false)]
            }
        case .help:
            screen = .help(HelpState(previous: .list))
        case .quit:
            return [.quit]
        case nil:
            break
        }
        return []
    }

    /// The query changed: its matches arrive from the background (`receiveBackgroundWork`).
    private mutating func searchAgain() -> [NotesEffect] {
        if listScreen.searchText.isEmpty {
            return [.reload(listQuery, usingIndex: false, selecting: nil, counting: false, firstPage: BackgroundSearch.firstPageSize)]
        }
        listScreen.searchPending = true
        return [.background(.search(listQuery))]
    }

    mutating func confirmDelete(_ note: NoteSnapshot, returningTo previous: Screen) {
        screen = .confirm(.deleting(note, returningTo: previous))
    }
}

extension NotesState {
    /// Says that the version the app runs as has no such thing (v5's tags, pins, modified dates).
    mutating func refuse(_ feature: NoteFeature) -> [NotesEffect] {
        message = "\(NoteBookError.notInThisVersion(feature, version: versionLabel))"
        return []
    }
}
