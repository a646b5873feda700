import UnCloudNotesKit

extension NotesState {
    mutating func handleList(_ key: Key) -> [NotesEffect] {
        if var input = searchInput {
            switch key {
            case .escape:
                searchInput = nil
                searchText = ""
                return [reload()]
            case .enter:
                searchInput = nil
            default:
                let before = input.text
                input.edit(key)
                // Moving the cursor changes no query: only a changed text searches again.
                if input.text != before { return applySearch(input) }
                searchInput = input
            }
            return []
        }
        switch key {
        case .up, .character("k"): selected = max(0, selected - 1)
        case .down, .character("j"): selected = min(max(0, list.count - 1), selected + 1)
        case .pageUp: selected = max(0, selected - listPage)
        case .pageDown: selected = min(max(0, list.count - 1), selected + listPage)
        case .home, .character("g"): selected = 0
        case .end, .character("G"): selected = max(0, list.count - 1)
        case .enter:
            if let id = selectedNoteID { screen = .detail(DetailState(noteID: id)) }
        case .character("n"):
            openEditor(for: nil)
        case .character("e"):
            guard let id = selectedNoteID else { break }
            guard let note = snapshot(of: id) else { return waitForNote(id, then: key) }
            openEditor(for: note)
        case .character("d"):
            guard let id = selectedNoteID else { break }
            guard let note = snapshot(of: id) else { return waitForNote(id, then: key) }
            confirmDelete(note, returningTo: .list)
        case .character("a"):
            guard supportsImages else {
                message = "\(NoteBookError.noImagesInThisVersion(version: versionLabel))"
                break
            }
            if let id = selectedNoteID { promptForImage(for: id, returningTo: .list) }
        case .character("S"):
            message = requestSync() ? "syncing…" : "a sync is under way"
        case .character("p"):
            guard supportsTags else { return refuse(.pins) }
            guard let id = selectedNoteID else { break }
            guard let note = snapshot(of: id) else { return waitForNote(id, then: key) }
            return [.setPinned(!note.pinned, id)]
        case .character("s"):
            guard supportsTags else { return refuse(.modifiedDates) }
            sort = sort.toggled
            message = "sorted by date \(sort == .created ? "created" : "modified"), pinned first"
            return [reload()]
        case .character("t"):
            guard supportsTags else { return refuse(.tags) }
            // The picker opens when the tags are read (`.tagsRead`).
            return [.readTags]
        case .character("u"):
            guard let undoable else {
                message = "nothing to undo: u brings back a note deleted with d, until the next change"
                break
            }
            self.undoable = nil
            return [.restore(undoable)]
        case .character("/"):
            searchInput = TextBuffer(searchText, allowsNewlines: false)
        case .escape:
            if !searchText.isEmpty {
                searchText = ""
                return [reload()]
            }
            if tagFilter != nil {
                tagFilter = nil
                return [reload()]
            }
        case .character("?"):
            screen = .help(HelpState(previous: .list))
        case .character("q"):
            return [.quit]
        default:
            break
        }
        return []
    }

    /// The query changes at once; its matches arrive from the background (`receiveBackgroundWork`).
    private mutating func applySearch(_ input: TextBuffer) -> [NotesEffect] {
        searchInput = input
        searchText = input.text
        selected = 0
        if searchText.isEmpty { return [.reload(listQuery, usingIndex: false, selecting: nil)] }
        backgroundJobs.append(.search(listQuery))
        searchPending = true
        return []
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
