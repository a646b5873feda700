import UnCloudNotesKit

extension NotesState {
    mutating func handleEditor(_ key: Key) -> [NotesEffect] {
        guard case .editor(var state) = screen else { return [] }
        switch key {
        case .control("s"):
            return save(state)
        case .escape:
            if state.hasChanges {
                screen = .confirm(ConfirmState(purpose: .discardEdits(state), question: "Discard your changes? y/N",
                                               previous: .editor(state)))
            } else {
                screen = state.noteID.map { .detail(DetailState(noteID: $0)) } ?? .list
            }
            return []
        case .control("e") where state.focusOnBody:
            screen = .editor(state)
            return [.openEditor(state.body.text)]
        case .backTab:
            state.focus = state.field(after: false)
        case .tab where !state.focusOnBody, .enter where !state.focusOnBody:
            state.focus = state.field(after: true)
        default:
            // The screen lets go of the draft while the key changes it, so the text is changed in
            // place: a 10 MB body is not copied for every character typed.
            screen = .list
            switch state.focus {
            case .body: editBody(&state, key)
            case .title: edit(&state.title, key)
            case .tags:
                if var tags = state.tags {
                    state.tags = nil
                    edit(&tags, key)
                    state.tags = tags
                }
            }
        }
        screen = .editor(state)
        return []
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
        screen = .editor(state)
        pendingSave = (state, draft)
        return catchUpWithStore()
    }

    /// Keys of a text field, with readline's Ctrl keys (the body's Ctrl-E is taken before: it
    /// opens `$EDITOR`). Lines are the field's lines, so in the body they work on the cursor's line.
    func edit(_ buffer: inout TextBuffer, _ key: Key) {
        switch key {
        case .character(let character): buffer.insert(character)
        case .backspace: buffer.deleteBackward()
        case .delete: buffer.deleteForward()
        case .left: buffer.moveLeft()
        case .right: buffer.moveRight()
        case .home, .control("a"): buffer.moveToLineStart()
        case .end, .control("e"): buffer.moveToLineEnd()
        case .control("k"): buffer.deleteToLineEnd()
        case .control("u"): buffer.deleteToLineStart()
        case .control("w"): buffer.deleteWordBackward()
        default: break
        }
    }

    private mutating func editBody(_ state: inout EditorState, _ key: Key) {
        let width = editorWrapWidth
        switch key {
        case .enter: state.body.insert("\n")
        case .tab: state.body.insert("\t")
        case .up, .down, .pageUp, .pageDown:
            let layout = TextLayout(state.body.characters, width: width)
            let line = layout.line(containing: state.body.cursor)
            let column = layout.column(of: state.body.cursor, in: line)
            let step = key == .up ? -1 : key == .down ? 1 : key == .pageUp ? -10 : 10
            state.body.moveTo(layout.position(atColumn: column, in: layout.line(line, movedBy: step)))
        default:
            edit(&state.body, key)
        }
    }
}
