import UnCloudNotesKit

extension NotesState {
    /// Takes in what came of an effect: shows it, and returns what to do next (reading the list
    /// again after a change, a save waiting for the store's check, a key waiting for its note).
    mutating func receive(_ event: NotesEvent) -> [NotesEffect] {
        // Undo brings back the note deleted last, until the next change.
        if case .deleted = event {} else if event.isChange { undoable = nil }
        if event.isChange { syncLine.storeChangedHere() }
        switch event {
        case .edited(let text):
            takeBackFromEditor(text)
        case .editorFailed(let reason), .imageOpened(let reason), .notice(let reason):
            message = reason
        case .saved(let id, let saving):
            switch saving {
            case .updated:
                screen = .detail(DetailState(noteID: id))
                message = "note saved"
                // Only this note changed: the IDs stay unless the edit can move the note in the list.
                return noteChanged(id, listMayChange: listDependsOnNoteText)
            case .created:
                screen = .list
                listScreen.searchText = ""
                message = "note created"
            case .copied:
                screen = .detail(DetailState(noteID: id))
                message = "saved as a new note; the other program's version is kept too"
            }
            return [reload(selecting: id)]
        case .deleted(let deleted):
            undoable = deleted
            message = "note deleted"
            return [reload()]
        case .pinned(let id, let pinned, let changed, let afterOutsideChange):
            message = switch (pinned, changed) {
            case (true, true): "note pinned: it lists first"
            case (false, true): "note unpinned"
            case (true, false): "another program pinned this note already"
            case (false, false): "another program unpinned this note already"
            }
            // The runner read the note again, as another program left it: so is everything shown.
            return afterOutsideChange ? storeChanged(selecting: id) : noteChanged(id, pinned: pinned)
        case .pinnedNoteGone(let id):
            message = "the note was deleted by another program"
            if case .detail(let detail) = screen, detail.noteID == id { screen = .list }
            return storeChanged()
        case .restored(let id):
            message = "note restored"
            return [reload(selecting: id)]
        case .attachmentDeleted(let id):
            message = "image deleted"
            // The image after the deleted one takes its place once the note is read again (`.noteRead`).
            return noteChanged(id, imagesChanged: true, listMayChange: listDependsOnNoteText)
        case .attached(let id, let imageCount):
            screen = .detail(DetailState(noteID: id, attachment: max(0, imageCount - 1)))
            message = "image attached"
            return noteChanged(id, imagesChanged: true, listMayChange: listDependsOnNoteText)
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
        case .replaceAsked(let id, let path, let title):
            let previous = promptsUnder(screen)
            screen = .confirm(ConfirmState(purpose: .replaceImage(id, path: path),
                                           question: "Notes of \(versionLabel) hold one image: replace the image of “\(title)”? y/N",
                                           previous: previous))
        case .captionSaved(let id):
            message = "caption saved"
            return noteChanged(id, listMayChange: listDependsOnNoteText)
        case .listRead(let ids, let total, let noteID, let isComplete):
            let reads = showList(ids, total: total, selecting: noteID, isComplete: isComplete)
            guard heldUntilFirstPaint != nil else { return reads }
            heldUntilFirstPaint? += reads
            return []
        case .frameDrawn:
            defer { heldUntilFirstPaint = nil }
            return heldUntilFirstPaint ?? []
        case .failed(let error):
            message = "\(error)"
        default:
            return receiveRead(event)
        }
        return []
    }

    /// The external editor's text becomes the body (nil: it failed or was cancelled).
    private mutating func takeBackFromEditor(_ text: String?) {
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

extension NotesState {
    /// Takes in what a read brought back, and goes on with what waited for it.
    private mutating func receiveRead(_ event: NotesEvent) -> [NotesEffect] {
        switch event {
        case .rowsRead(let rows):
            listScreen.notes.remember(rows)
        case .rowsUnreadable(let ids, let error):
            listScreen.notes.rememberUnreadable(ids)
            message = "cannot read the list: \(error)"
        case .noteRead(let note):
            snapshots[note.id] = note
            if case .detail(var detail) = screen, detail.noteID == note.id {
                // After an image was deleted, the one after it takes its place; the last one's predecessor.
                detail.attachment = min(detail.attachment, max(0, note.attachments.count - 1))
                screen = .detail(detail)
            }
            return continueSave() + replayWaitingKey()
        case .noteUnreadable(let id, let error):
            unreadableNotes.insert(id)
            if case .noSuchNote = error {} else { message = "cannot read note \(id): \(error)" }
            if case .detail(let detail) = screen, detail.noteID == id {
                screen = .list
                if case .noSuchNote = error { message = "the note was deleted by another program" }
            }
            return continueSave() + replayWaitingKey()
        case .tagsRead(.success(let tags)):
            let current = listScreen.tagFilter.flatMap { name in tags.firstIndex { $0.name == name } }.map { $0 + 1 } ?? 0
            screen = .tagPicker(TagPickerState(tags: tags, selected: current, previous: .list))
        case .tagsRead(.failure(let error)):
            message = "cannot read the tags: \(error)"
        case .storeChecked(.success(let check)):
            knownExternalChangeToken = check.version
            // Another process's change may be one to send, or a sync that sent everything.
            return (check.changed ? [.background(.refreshSyncStatus)] + storeChanged() : []) + continueSave()
        case .storeChecked(.failure(let error)):
            message = knownExternalChangeToken == nil ? "cannot read the store: \(error)" : "cannot read the store again: \(error)"
            return continueSave()
        case .pathCompleted(let typed, let text, let candidates):
            guard case .prompt(let state) = screen, let completed = state.completed(typed: typed, text: text, candidates: candidates) else { break }
            screen = .prompt(completed)
        case .searchAnswered(let ids, let isComplete, let failure):
            searchAnswered(ids, isComplete: isComplete, failure: failure)
        case .previewsMade(let made):
            for preview in made { previews.store(preview.preview, key: preview.key) }
        case .searchIndexBuilt:
            searchIndexReady = true
        case .syncStatusRead(let status):
            syncLine.status = status
        case .syncFinished(let outcome):
            syncFinished(outcome)
        default:
            break
        }
        return []
    }

    /// The latest search's answer: its matches listed, or, when the rest of a list failed to
    /// arrive, its first page left on screen with the reason.
    private mutating func searchAnswered(_ ids: [NoteID], isComplete: Bool, failure: String?) {
        if let failure {
            if listScreen.awaitingRest {
                message = "only the list's first page is shown: \(failure)"
                listScreen.restFailed()
                return
            }
            message = failure
        }
        listScreen.showMatches(ids, isComplete: isComplete)
    }

    /// A finished sync: the status line says when and what moved, conflicts or an error show as
    /// the message. The notes it wrote arrive as any other process's change.
    private mutating func syncFinished(_ outcome: SyncOutcome) {
        syncLine.running = false
        switch outcome {
        case .success(let report):
            syncLine.failed = false
            message = report.lines.dropLast().joined(separator: "; ")
        case .failure(let failure):
            syncLine.failed = true
            message = "sync failed: \(failure.message)"
        }
    }

    /// The key that waited for a note, handled now that the read is back.
    private mutating func replayWaitingKey() -> [NotesEffect] {
        guard let key = waitingKey else { return [] }
        waitingKey = nil
        return dispatch(key)
    }

    /// Ctrl-S's save once the store was checked and the note read again: saved over the note,
    /// or, when another program changed or deleted it meanwhile, a question (save as a new note?).
    mutating func continueSave() -> [NotesEffect] {
        guard let (state, draft) = pendingSave else { return [] }
        if let id = state.noteID, snapshots[id] == nil, !unreadableNotes.contains(id) { return [.readNote(id)] }
        pendingSave = nil
        if changedElsewhere(state) {
            screen = .confirm(ConfirmState(purpose: .saveAsCopy(state),
                                           question: "Another program changed or deleted this note: save your text as a new note? y/N",
                                           previous: .editor(state)))
            return []
        }
        return [.save(draft, over: state.noteID)]
    }
}

extension NotesEvent {
    /// Whether the event reports a change the app made to the store (which ends what undo can
    /// bring back); reads, refusals and failures change nothing.
    var isChange: Bool {
        switch self {
        case .pinned(_, _, let changed, _): changed
        case .saved, .deleted, .attachmentDeleted, .attached, .captionSaved, .restored: true
        case .pinnedNoteGone, .edited, .editorFailed, .notice, .frameDrawn, .imageRefused, .replaceAsked, .listRead, .imageOpened, .failed,
             .rowsRead, .rowsUnreadable, .noteRead, .noteUnreadable, .tagsRead, .storeChecked, .pathCompleted,
             .searchAnswered, .previewsMade, .searchIndexBuilt, .syncStatusRead, .syncFinished: false
        }
    }
}
