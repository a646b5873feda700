import UnCloudNotesKit

extension NotesApp {
    func handleDetail(_ key: Key, _ state: DetailState) throws -> Action {
        guard let note = snapshot(of: state.noteID) else {
            screen = .list
            return .none
        }
        var state = state
        let attachments = note.attachments
        switch key {
        case .up, .character("k"): state.scroll = scrolled(state.scroll, by: -1)
        case .down, .character("j"): state.scroll = scrolled(state.scroll, by: 1)
        case .pageUp: state.scroll = scrolled(state.scroll, by: -10)
        case .pageDown: state.scroll = scrolled(state.scroll, by: 10)
        case .home, .character("g"): state.scroll = 0
        case .end, .character("G"): state.scroll = lastDetailMaxScroll
        case .left, .character("["): state.attachment = max(0, state.attachment - 1)
        case .right, .character("]"): state.attachment = min(max(0, attachments.count - 1), state.attachment + 1)
        case .character("e"):
            openEditor(for: note)
            return .none
        case .character("a"):
            guard supportsImages else {
                message = "\(NoteBookError.noImagesInThisVersion(version: versionLabel))"
                break
            }
            promptForImage(for: note.id, returningTo: .detail(state))
            return .none
        case .character("x"):
            guard state.attachment < attachments.count else { break }
            // The question, the preview behind it and the deletion are all about the image shown.
            let attachment = attachments[state.attachment]
            screen = .confirm(ConfirmState(purpose: .deleteAttachment(note.id, attachment.id),
                                           question: "Delete image \(state.attachment + 1) of “\(note.title)”? y/N",
                                           previous: .detail(state)))
            return .none
        case .character("c"):
            guard supportsCaptions, state.attachment < attachments.count else { break }
            let attachment = attachments[state.attachment]
            screen = .prompt(PromptState(purpose: .caption(note.id, attachment),
                                         input: TextBuffer(attachment.caption ?? "", allowsNewlines: false), previous: .detail(state)))
            return .none
        case .character("d"):
            confirmDelete(note, returningTo: .detail(state))
            return .none
        case .character("?"):
            screen = .help(HelpState(previous: .detail(state)))
            return .none
        case .escape, .character("q"), .backspace:
            screen = .list
            return .none
        default:
            break
        }
        screen = .detail(state)
        return .none
    }

    /// A scroll position moved by `step` lines, kept between the top and the last screenful
    /// (as measured by the last render), so scrolling past the end does not keep counting.
    private func scrolled(_ scroll: Int, by step: Int) -> Int {
        min(max(0, scroll + step), lastDetailMaxScroll)
    }
}
