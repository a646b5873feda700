import UnCloudNotesKit

extension NotesApp {
    func handleList(_ key: Key) -> [NotesEffect] {
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
                edit(&input, key)
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
            if let note = selectedNoteID.flatMap(snapshot) { openEditor(for: note) }
        case .character("d"):
            if let note = selectedNoteID.flatMap(snapshot) { confirmDelete(note, returningTo: .list) }
        case .character("a"):
            guard supportsImages else {
                message = "\(NoteBookError.noImagesInThisVersion(version: versionLabel))"
                break
            }
            if let id = selectedNoteID { promptForImage(for: id, returningTo: .list) }
        case .character("S"):
            message = startSync() ? "syncing…" : "a sync is under way"
        case .character("p"):
            guard supportsTags else { return refuse(.pins) }
            if let id = selectedNoteID, let note = snapshot(of: id) { return [.setPinned(!note.pinned, id)] }
        case .character("s"):
            guard supportsTags else { return refuse(.modifiedDates) }
            sort = sort.toggled
            message = "sorted by date \(sort == .created ? "created" : "modified"), pinned first"
            return [reload()]
        case .character("t"):
            guard supportsTags else { return refuse(.tags) }
            return pickTag()
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
    private func applySearch(_ input: TextBuffer) -> [NotesEffect] {
        searchInput = input
        searchText = input.text
        selected = 0
        if searchText.isEmpty { return [.reload(listQuery, usingIndex: false, selecting: nil)] }
        backgroundSearch.start(listQuery)
        searchPending = true
        return []
    }

    func confirmDelete(_ note: NoteSnapshot, returningTo previous: Screen) {
        screen = .confirm(ConfirmState(purpose: .deleteNote(note.id), question: "Delete the note “\(note.title)”? y/N",
                                       previous: previous))
    }

    func handleConfirm(_ key: Key, _ state: ConfirmState) -> [NotesEffect] {
        guard key == .character("y") || key == .character("Y") else {
            screen = state.previous
            return []
        }
        switch state.purpose {
        case .deleteNote(let id):
            screen = .list
            return [.delete(id)]
        case .deleteAttachment(let id, let attachment):
            screen = state.previous
            return [.deleteAttachment(attachment, of: id)]
        case .discardEdits(let editor):
            screen = editor.noteID.map { .detail(DetailState(noteID: $0)) } ?? .list
        case .quitDiscarding:
            return [.quit]
        case .replaceImage(let id, let path):
            screen = state.previous
            return [.attach(path: path, to: id, caption: NoteBook.newImageCaption, replacing: true)]
        case .saveAsCopy(let editor):
            screen = state.previous
            // The draft was checked before the question was asked.
            return [.saveAsCopy((try? editor.draft()) ?? NoteDraft(title: editor.title.text, body: editor.body.text))]
        }
        return []
    }
}

extension NotesApp {
    /// Says that the version the app runs as has no such thing (v5's tags, pins, modified dates).
    func refuse(_ feature: NoteFeature) -> [NotesEffect] {
        message = "\(NoteBookError.notInThisVersion(feature, version: versionLabel))"
        return []
    }

    /// Opens the tag picker on the tags and their counts, the current filter selected.
    private func pickTag() -> [NotesEffect] {
        do {
            let tags = try book.tags()
            let current = tagFilter.flatMap { name in tags.firstIndex { $0.name == name } }.map { $0 + 1 } ?? 0
            screen = .tagPicker(TagPickerState(tags: tags, selected: current, previous: .list))
        } catch {
            message = "cannot read the tags: \(error)"
        }
        return []
    }

    /// ↑↓ choose, Enter filters the list by the tag ("All notes" clears the filter), Esc goes back.
    func handleTagPicker(_ key: Key, _ state: TagPickerState) -> [NotesEffect] {
        var state = state
        let last = state.tags.count
        switch key {
        case .up, .character("k"): state.selected = max(0, state.selected - 1)
        case .down, .character("j"): state.selected = min(last, state.selected + 1)
        case .home: state.selected = 0
        case .end: state.selected = last
        case .enter:
            tagFilter = state.selected == 0 ? nil : state.tags[state.selected - 1].name
            screen = state.previous
            selected = 0
            return [reload()]
        case .escape, .character("q"), .character("t"):
            screen = state.previous
            return []
        default:
            break
        }
        screen = .tagPicker(state)
        return []
    }
}
