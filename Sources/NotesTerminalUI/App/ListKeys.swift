import ManagedStore
import UnCloudNotesKit

extension NotesApp {
    /// Rows of the list that fit on screen, for paging (set by the last render).
    var listPage: Int { max(1, lastListHeight) }

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
        case .down, .character("j"): selected = min(max(0, results.count - 1), selected + 1)
        case .pageUp: selected = max(0, selected - listPage)
        case .pageDown: selected = min(max(0, results.count - 1), selected + listPage)
        case .home, .character("g"): selected = 0
        case .end, .character("G"): selected = max(0, results.count - 1)
        case .enter:
            if let note = selectedNote { screen = .detail(DetailState(noteID: note.objectID)) }
        case .character("n"):
            openEditor(for: nil)
        case .character("e"):
            if let note = selectedNote { openEditor(for: note) }
        case .character("d"):
            if let note = selectedNote { confirmDelete(note, returningTo: .list) }
        case .character("a"):
            guard supportsImages else {
                message = "notes of \(versionLabel) have no images (run as v2 or later)"
                break
            }
            if let note = selectedNote { promptForImage(for: note.objectID, returningTo: .list) }
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

    func confirmDelete(_ note: ManagedObject, returningTo previous: Screen) {
        let title = book.snapshot(of: note).title
        screen = .confirm(ConfirmState(purpose: .deleteNote(note.objectID), question: "Delete the note “\(title)”? y/N",
                                       previous: previous))
    }

    func handleConfirm(_ key: Key, _ state: ConfirmState) throws -> Action {
        guard key == .character("y") || key == .character("Y") else {
            screen = state.previous
            return .none
        }
        switch state.purpose {
        case .deleteNote(let id):
            screen = .list
            if let note = book.note(with: id) {
                try book.delete(note)
                message = "note deleted"
            }
            try storeChanged()
        case .deleteAttachment(let id, let attachment):
            screen = state.previous
            if let note = book.note(with: id) {
                try book.deleteAttachment(attachment, of: note)
                message = "image deleted"
                if case .detail(var detail) = state.previous {
                    // The image after the deleted one takes its place; the last one's predecessor.
                    detail.attachment = min(detail.attachment, max(0, book.attachmentCount(of: note) - 1))
                    screen = .detail(detail)
                }
            }
            try storeChanged(selecting: id)
        case .discardEdits(let editor):
            screen = editor.noteID.map { .detail(DetailState(noteID: $0)) } ?? .list
        case .quitDiscarding:
            return .quit
        case .replaceImage(let id, let image):
            try attach(image, to: id)
        case .saveAsCopy(let editor):
            let title = editor.title.text.trimmingCharacters(in: .whitespacesAndNewlines)
            let note = try book.addNote(title: title, body: editor.body.text)
            screen = .detail(DetailState(noteID: note.objectID))
            try storeChanged(selecting: note.objectID)
            message = "saved as a new note; the other program's version is kept too"
        }
        return .none
    }
}
