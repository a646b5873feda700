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
            message = backgroundSync.start() ? "syncing…" : "a sync is under way"
        case .character("/"):
            searchInput = TextBuffer(searchText, allowsNewlines: false)
        case .escape:
            if !searchText.isEmpty {
                searchText = ""
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
        if searchText.isEmpty { return [.reload(search: "", usingIndex: false, selecting: nil)] }
        backgroundSearch.start(searchText)
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
            return [.saveAsCopy(editor.draft)]
        }
        return []
    }
}
