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

    /// The editor's reducer: its keys (`keys`) change the draft in place (the fields, the focus);
    /// what needs the app comes back as a step. A key of the body's (Ctrl-E, ↑↓, Ctrl-Home) in
    /// another field, and any key the editor does not name, is typed into the field in focus.
    mutating func handle(_ key: Key, wrapWidth: Int) -> Step {
        switch keys.action(for: key) {
        case .save: return .save
        case .leave: return .leave
        case .externalEditor where focusOnBody: return .openEditor
        case .previousField: focus = field(after: false)
        case .nextField where !focusOnBody, .newLine where !focusOnBody: focus = field(after: true)
        case .nextField: body.insert("\t")
        case .newLine: body.insert("\n")
        case .bodyStart where focusOnBody: body.moveTo(0)
        case .bodyEnd where focusOnBody: body.moveTo(body.characters.count)
        case .moveLines(let step) where focusOnBody: moveInBody(by: step, wrapWidth: wrapWidth)
        default: editFocusedField(key)
        }
        return .editing
    }

    /// ↑↓ and the page keys in the body move by the lines as wrapped at `wrapWidth` (laid out
    /// around the cursor only).
    private mutating func moveInBody(by step: Int, wrapWidth: Int) {
        let layout = TextLayout(body.characters, width: wrapWidth)
        let line = layout.line(containing: body.cursor)
        let column = layout.column(of: body.cursor, in: line)
        body.moveTo(layout.position(atColumn: column, in: layout.line(line, movedBy: step)))
    }

    private mutating func editFocusedField(_ key: Key) {
        switch focus {
        case .body: body.edit(key)
        case .title: title.edit(key)
        case .tags:
            if var field = tags {
                tags = nil
                field.edit(key)
                tags = field
            }
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
