import UnCloudNotesKit

extension NotesApp {
    /// Takes in what came of an effect: shows it, and returns what to do next (reading the list
    /// again after a change).
    public func receive(_ event: NotesEvent) -> [NotesEffect] {
        // Undo brings back the note deleted last, until the next change.
        if case .deleted = event {} else if event.isChange { undoable = nil }
        if event.isChange { syncLine.storeChangedHere() }
        switch event {
        case .edited(let text):
            takeBackFromEditor(text)
        case .editorFailed(let reason), .imageOpened(let reason):
            message = reason
        case .saved(let id, let saving):
            switch saving {
            case .updated:
                screen = .detail(DetailState(noteID: id))
                message = "note saved"
            case .created:
                screen = .list
                searchText = ""
                message = "note created"
            case .copied:
                screen = .detail(DetailState(noteID: id))
                message = "saved as a new note; the other program's version is kept too"
            }
            return storeChanged(selecting: id)
        case .deleted(let deleted):
            undoable = deleted
            message = "note deleted"
            return storeChanged()
        case .pinned(let id, let pinned):
            message = pinned ? "note pinned: it lists first" : "note unpinned"
            return storeChanged(selecting: id)
        case .restored(let id):
            message = "note restored"
            return storeChanged(selecting: id)
        case .attachmentDeleted(let id):
            message = "image deleted"
            let effects = storeChanged(selecting: id)
            if case .detail(var detail) = screen {
                // The image after the deleted one takes its place; the last one's predecessor.
                detail.attachment = min(detail.attachment, max(0, (snapshot(of: id)?.attachments.count ?? 0) - 1))
                screen = .detail(detail)
            }
            return effects
        case .attached(let id, let imageCount):
            screen = .detail(DetailState(noteID: id, attachment: max(0, imageCount - 1)))
            message = "image attached"
            return storeChanged(selecting: id)
        case .imageRefused(let reason):
            // A refused file is named under the path prompt, the caption prompt's previous screen.
            if case .prompt(let state) = screen, case .newImageCaption = state.purpose, case .prompt = state.previous {
                screen = state.previous
            }
            if case .prompt(var state) = screen {
                state.error = reason
                screen = .prompt(state)
            } else {
                message = reason
            }
        case .replaceAsked(let id, let path):
            let previous = promptsUnder(screen)
            let title = snapshot(of: id)?.title ?? ""
            screen = .confirm(ConfirmState(purpose: .replaceImage(id, path: path),
                                           question: "Notes of \(versionLabel) hold one image: replace the image of “\(title)”? y/N",
                                           previous: previous))
        case .captionSaved(let id):
            message = "caption saved"
            return storeChanged(selecting: id)
        case .listRead(let ids, let total, let noteID):
            showList(ids, total: total, selecting: noteID)
        case .failed(let error):
            message = "\(error)"
        }
        return []
    }

    /// The external editor's text becomes the body (nil: it failed or was cancelled).
    private func takeBackFromEditor(_ text: String?) {
        guard case .editor(var state) = screen else { return }
        if let text {
            state.body.replaceAll(with: text.hasSuffix("\n") ? String(text.dropLast()) : text)
            screen = .editor(state)
            message = "body taken back from the editor"
        } else {
            message = "the editor failed; the body is unchanged"
        }
    }

    /// The screen under the attach prompts (path, then caption): where the app goes back to.
    private func promptsUnder(_ screen: Screen) -> Screen {
        if case .prompt(let state) = screen { return promptsUnder(state.previous) }
        return screen
    }
}

extension NotesEvent {
    /// Whether the event reports a change the app made to the store (which ends what undo can
    /// bring back); reads, refusals and failures change nothing.
    var isChange: Bool {
        switch self {
        case .saved, .deleted, .attachmentDeleted, .attached, .captionSaved, .pinned, .restored: true
        case .edited, .editorFailed, .imageRefused, .replaceAsked, .listRead, .imageOpened, .failed: false
        }
    }
}
