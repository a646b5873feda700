import UnCloudNotesKit

extension NotesState.DetailState {
    /// What a key in a note decided.
    enum Step {
        /// Scrolled, or moved to another image.
        case stay(NotesState.DetailState)
        /// A question, a prompt, the help or the list.
        case go(NotesState.Screen)
        /// `e`: the editor on the note.
        case edit
        /// `a` in a version without images.
        case noImages
        /// `o`: the image shown, to the system's viewer.
        case open(NotesEffect)
    }

    /// The detail view's reducer, over the note it shows. `scrolled` and `bottom` give the top
    /// after scrolling by a number of lines and at the body's end (laid out by the caller, who
    /// keeps the layouts).
    func handled(_ action: DetailAction, note: NoteSnapshot, takesImages: Bool, takesCaptions: Bool,
                 scrolled: (Int) -> Int, bottom: () -> Int) -> Step {
        var next = self
        let attachments = note.attachments
        switch action {
        case .scroll(let lines): next.top = scrolled(lines)
        case .top: next.top = 0
        case .bottom: next.top = bottom()
        case .previousImage: next.attachment = max(0, attachment - 1)
        case .nextImage: next.attachment = min(max(0, attachments.count - 1), attachment + 1)
        case .edit:
            return .edit
        case .attach:
            return takesImages ? .go(.prompt(.attachImage(to: note.id, returningTo: .detail(self)))) : .noImages
        case .deleteImage:
            guard attachment < attachments.count else { break }
            // The question, the preview behind it and the deletion are all about the image shown.
            return .go(.confirm(NotesState.ConfirmState(purpose: .deleteAttachment(note.id, attachments[attachment].id),
                                                        question: "Delete image \(attachment + 1) of “\(note.title)”? y/N",
                                                        previous: .detail(self))))
        case .openImage:
            guard attachment < attachments.count, let data = attachments[attachment].imageData else { break }
            let format = NoteImage(storedData: data).formatName ?? "img"
            return .open(.openImage(data, name: "note-\(note.id)-image-\(attachment + 1).\(format)"))
        case .caption:
            guard takesCaptions, attachment < attachments.count else { break }
            let shown = attachments[attachment]
            return .go(.prompt(NotesState.PromptState(purpose: .caption(note.id, shown),
                                                      input: TextBuffer(shown.caption ?? "", allowsNewlines: false), previous: .detail(self))))
        case .delete:
            return .go(.confirm(.deleting(note, returningTo: .detail(self))))
        case .help:
            return .go(.help(NotesState.HelpState(previous: .detail(self))))
        case .back:
            return .go(.list)
        }
        return .stay(next)
    }
}

extension NotesState {
    mutating func handleDetail(_ key: Key, _ state: DetailState) -> [NotesEffect] {
        guard let note = snapshot(of: state.noteID) else {
            guard unreadableNotes.contains(state.noteID) else { return waitForNote(state.noteID, then: key) }
            screen = .list
            return []
        }
        guard let action = detailKeys.action(for: key) else { return [] }
        let step = state.handled(action, note: note, takesImages: supportsImages, takesCaptions: supportsCaptions,
                                 scrolled: { detailTop(of: note, from: state.top, scrolledBy: $0) }, bottom: { detailBottom(of: note) })
        switch step {
        case .stay(let next): screen = .detail(next)
        case .go(let next): screen = next
        case .edit: openEditor(for: note)
        case .noImages: message = "\(NoteBookError.noImagesInThisVersion(version: versionLabel))"
        case .open(let effect): return [effect]
        }
        return []
    }
}
