import UnCloudNotesKit

extension NotesState.EditorState {
    /// What an editor key asks of the app beyond the draft.
    enum Step {
        /// The draft or the focus changed; nothing else to do.
        case editing
        /// Ctrl-S.
        case save
        /// Esc: back to the note (or the list), asking first when the draft has changes.
        case leave
        /// Ctrl-E in the body: `$EDITOR`.
        case openEditor
    }

    /// The editor's reducer: its keys change the draft in place (the fields, the focus); what
    /// needs the app comes back as a step.
    mutating func handle(_ key: Key, wrapWidth: Int) -> Step {
        switch key {
        case .control("s"): return .save
        case .escape: return .leave
        case .control("e") where focusOnBody: return .openEditor
        case .backTab: focus = field(after: false)
        case .tab where !focusOnBody, .enter where !focusOnBody: focus = field(after: true)
        default:
            switch focus {
            case .body: editBody(key, wrapWidth: wrapWidth)
            case .title: title.edit(key)
            case .tags:
                if var field = tags {
                    tags = nil
                    field.edit(key)
                    tags = field
                }
            }
        }
        return .editing
    }

    /// Keys in the body: Enter and Tab insert themselves, ↑↓ and the page keys move by the lines
    /// as wrapped at `wrapWidth` (laid out around the cursor only).
    private mutating func editBody(_ key: Key, wrapWidth: Int) {
        switch key {
        case .enter: body.insert("\n")
        case .tab: body.insert("\t")
        case .controlHome: body.moveTo(0)
        case .controlEnd: body.moveTo(body.characters.count)
        case .up, .down, .pageUp, .pageDown:
            let layout = TextLayout(body.characters, width: wrapWidth)
            let line = layout.line(containing: body.cursor)
            let column = layout.column(of: body.cursor, in: line)
            let step = key == .up ? -1 : key == .down ? 1 : key == .pageUp ? -10 : 10
            body.moveTo(layout.position(atColumn: column, in: layout.line(line, movedBy: step)))
        default:
            body.edit(key)
        }
    }
}

extension NotesState {
    mutating func handleEditor(_ key: Key) -> [NotesEffect] {
        guard case .editor(var state) = screen else { return [] }
        // The screen lets go of the draft while the key changes it, so the text is changed in
        // place: a 10 MB body is not copied for every character typed.
        screen = .list
        let step = state.handle(key, wrapWidth: editorWrapWidth)
        screen = .editor(state)
        switch step {
        case .editing:
            return []
        case .save:
            return save(state)
        case .openEditor:
            return [.openEditor(state.body.text)]
        case .leave:
            if state.hasChanges {
                screen = .confirm(ConfirmState(purpose: .discardEdits(state), question: "Discard your changes? y/N",
                                               previous: .editor(state)))
            } else {
                screen = state.noteID.map { .detail(DetailState(noteID: $0)) } ?? .list
            }
            return []
        }
    }

    /// Saves the draft once the store is checked for other programs' changes (`continueSave`);
    /// when the stored note changed meanwhile, asks to save it as a copy instead.
    private mutating func save(_ state: EditorState) -> [NotesEffect] {
        let draft: NoteDraft
        do {
            draft = try state.draft()
        } catch {
            message = "\(error)"
            var focused = state
            focused.focus = .tags
            screen = .editor(focused)
            return []
        }
        guard draft.hasTitle else {
            message = "\(NoteBookError.emptyTitle)"
            var focused = state
            focused.focus = .title
            screen = .editor(focused)
            return []
        }
        pendingSave = (state, draft)
        return catchUpWithStore()
    }
}
