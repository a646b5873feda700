import UnCloudNotesKit

extension NotesApp {
    func handleList(_ key: Key) throws -> Action {
        if var input = searchInput {
            switch key {
            case .escape:
                searchInput = nil
                searchText = ""
                try reload()
            case .enter:
                searchInput = nil
            case .backspace:
                input.deleteBackward()
                try applySearch(input)
            case .character(let character):
                input.insert(character)
                try applySearch(input)
            default:
                break
            }
            return .none
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
        case .character("/"):
            searchInput = TextBuffer(searchText, allowsNewlines: false)
        case .escape:
            if !searchText.isEmpty {
                searchText = ""
                try reload()
            }
        case .character("?"):
            screen = .help(HelpState(previous: .list))
        case .character("q"):
            return .quit
        default:
            break
        }
        return .none
    }

    /// The query changes at once; its matches arrive from the background (`receiveBackgroundWork`).
    private func applySearch(_ input: TextBuffer) throws {
        searchInput = input
        searchText = input.text
        selected = 0
        if searchText.isEmpty {
            try reload(selecting: nil)
            selected = 0
        } else {
            backgroundSearch.start(searchText)
            searchPending = true
        }
    }

    func confirmDelete(_ note: NoteSnapshot, returningTo previous: Screen) {
        screen = .confirm(ConfirmState(purpose: .deleteNote(note.id), question: "Delete the note “\(note.title)”? y/N",
                                       previous: previous))
    }

    /// Deletes a note; one another program deleted first is simply gone from the list read again.
    private func deleteNote(_ id: NoteID) throws(NoteBookError) {
        do {
            try book.delete(id)
            message = "note deleted"
        } catch .noSuchNote {
        }
        try storeChanged()
    }

    func handleConfirm(_ key: Key, _ state: ConfirmState) throws -> Action {
        guard key == .character("y") || key == .character("Y") else {
            screen = state.previous
            return .none
        }
        switch state.purpose {
        case .deleteNote(let id):
            screen = .list
            try deleteNote(id)
        case .deleteAttachment(let id, let attachment):
            screen = state.previous
            try book.deleteAttachment(attachment)
            message = "image deleted"
            try storeChanged(selecting: id)
            if case .detail(var detail) = state.previous {
                // The image after the deleted one takes its place; the last one's predecessor.
                detail.attachment = min(detail.attachment, max(0, (snapshot(of: id)?.attachments.count ?? 0) - 1))
                screen = .detail(detail)
            }
        case .discardEdits(let editor):
            screen = editor.noteID.map { .detail(DetailState(noteID: $0)) } ?? .list
        case .quitDiscarding:
            return .quit
        case .replaceImage(let id, let image):
            try attach(image, to: id, replacing: true)
        case .saveAsCopy(let editor):
            let id = try book.add(editor.draft)
            screen = .detail(DetailState(noteID: id))
            try storeChanged(selecting: id)
            message = "saved as a new note; the other program's version is kept too"
        }
        return .none
    }
}
