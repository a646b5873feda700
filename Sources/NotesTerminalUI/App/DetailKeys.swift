import UnCloudNotesKit

extension NotesState {
    mutating func handleDetail(_ key: Key, _ state: DetailState) -> [NotesEffect] {
        guard let note = snapshot(of: state.noteID) else {
            guard unreadableNotes.contains(state.noteID) else { return waitForNote(state.noteID, then: key) }
            screen = .list
            return []
        }
        var state = state
        let attachments = note.attachments
        func scrolled(_ steps: Int) -> Int { detailTop(of: note, from: state.top, scrolledBy: steps) }
        switch key {
        case .up, .character("k"): state.top = scrolled(-1)
        case .down, .character("j"): state.top = scrolled(1)
        case .pageUp: state.top = scrolled(-10)
        case .pageDown: state.top = scrolled(10)
        case .home, .character("g"): state.top = 0
        case .end, .character("G"): state.top = detailBottom(of: note)
        case .left, .character("["): state.attachment = max(0, state.attachment - 1)
        case .right, .character("]"): state.attachment = min(max(0, attachments.count - 1), state.attachment + 1)
        case .character("e"):
            openEditor(for: note)
            return []
        case .character("a"):
            guard supportsImages else {
                message = "\(NoteBookError.noImagesInThisVersion(version: versionLabel))"
                break
            }
            promptForImage(for: note.id, returningTo: .detail(state))
            return []
        case .character("x"):
            guard state.attachment < attachments.count else { break }
            // The question, the preview behind it and the deletion are all about the image shown.
            let attachment = attachments[state.attachment]
            screen = .confirm(ConfirmState(purpose: .deleteAttachment(note.id, attachment.id),
                                           question: "Delete image \(state.attachment + 1) of “\(note.title)”? y/N",
                                           previous: .detail(state)))
            return []
        case .character("o"):
            guard state.attachment < attachments.count, let data = attachments[state.attachment].imageData else { break }
            let format = NoteImage(storedData: data).formatName ?? "img"
            return [.openImage(data, name: "note-\(note.id)-image-\(state.attachment + 1).\(format)")]
        case .character("c"):
            guard supportsCaptions, state.attachment < attachments.count else { break }
            let attachment = attachments[state.attachment]
            screen = .prompt(PromptState(purpose: .caption(note.id, attachment),
                                         input: TextBuffer(attachment.caption ?? "", allowsNewlines: false), previous: .detail(state)))
            return []
        case .character("d"):
            confirmDelete(note, returningTo: .detail(state))
            return []
        case .character("?"):
            screen = .help(HelpState(previous: .detail(state)))
            return []
        case .escape, .character("q"), .backspace:
            screen = .list
            return []
        default:
            break
        }
        screen = .detail(state)
        return []
    }
}
