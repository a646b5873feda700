import Foundation
import UnCloudNotesKit

/// One screen of the notes app, with everything it shows read beforehand (list rows, the note
/// shown, its image preview): `render()` is a pure function of it, so drawing never reads the
/// store, decodes an image or changes the app's state. `NotesApp.frame()` makes it from what the
/// reads `NotesApp.prepareFrame()` asked for brought back.
public struct NotesFrame: ScreenLayout {
    /// The app's state when the frame was made: the screen, the message, the list's selection,
    /// search and order.
    let model: NotesState
    /// The list's first visible row, moved only as far as the selection needs.
    let listTop: Int
    /// The rows from `listTop` that fit (nil for a row not read, or that could not be).
    let visibleRows: [NoteRow?]
    /// The note the screen shows: the detail view's, or the list's selected one beside it.
    let shownNote: NoteSnapshot?
    /// The lines of its body the screen shows (the detail view's, or the list preview's first ones).
    let shownText: ShownText?
    /// The preview of the image shown: nil while it is being made, empty when it cannot be shown.
    let image: RenderedPreview?
    /// The detail view's images, with their previews.
    let detailImages: [DetailImage]

    var size: TerminalSize { model.size }
    var supportsImages: Bool { model.supportsImages }
    var supportsCaptions: Bool { model.supportsCaptions }
    var supportsTags: Bool { model.supportsTags }
    var versionLabel: String { model.versionLabel }
    var storePath: String { model.storePath }
    var banner: String? { model.banner }
}

extension NotesState {
    /// Gathers what the current screen shows, at the size of the last `resize` event, from what
    /// was read: the list's visible rows (keeping the selection in view), the note shown and its
    /// image preview. Reads nothing and changes nothing: what is not read yet shows blank until it is.
    func frame() -> NotesFrame {
        let top = listTopKeepingSelection()
        let visible = (top..<min(top + listPage, listScreen.notes.count)).map { listScreen.notes.row(at: $0) }
        let note = noteShown(on: screen).flatMap(snapshot)
        let image: RenderedPreview? = if let note { imageShown(of: note) } else { .unavailable }
        let detailImages: [DetailImage] = if let note, case .detail(let state) = detailUnderneath(screen) {
            detailImagesShown(of: note, selected: state.attachment)
        } else {
            []
        }
        let text = note.flatMap { textShown(of: $0) }
        return NotesFrame(model: self, listTop: top, visibleRows: visible, shownNote: note, shownText: text,
                          image: image, detailImages: detailImages)
    }

    /// The first visible row: moved only as far as needed to show the selection.
    func listTopKeepingSelection() -> Int {
        var top = listScreen.listTop
        if listScreen.selected < top { top = listScreen.selected }
        if listScreen.selected >= top + listPage { top = listScreen.selected - listPage + 1 }
        return max(0, min(top, max(0, listScreen.notes.count - listPage)))
    }

    /// The note a screen shows: the detail view's (also under a question or prompt), or the
    /// list's selected note when the list has room for its preview.
    func noteShown(on screen: Screen) -> NoteID? {
        switch screen {
        case .detail(let state): state.noteID
        case .list: listAreas.preview == nil ? nil : selectedNoteID
        case .prompt(let state): noteShown(on: state.previous)
        case .confirm(let state): noteShown(on: state.previous)
        case .editor, .help, .tagPicker: nil
        }
    }

    /// The lines of the note's body a screen shows: the detail view's screenful, or the preview's
    /// first lines when the list has room for them.
    private func textShown(of note: NoteSnapshot) -> ShownText? {
        if case .detail(let state) = detailUnderneath(screen) { return detailText(of: note, top: state.top) }
        guard let area = listAreas.preview, area.width > 4, area.height > 2 else { return nil }
        return previewText(of: note, in: area)
    }

    /// The list preview's image of the note (its latest), fitted to its place; nil while it is
    /// made. (The detail view's images are `detailImagesShown`.)
    private func imageShown(of note: NoteSnapshot) -> RenderedPreview? {
        guard let place = listPreviewImagePlace(of: note) else { return .unavailable }
        return preview(place.attachment, note: note, index: place.index, columns: place.columns, rows: place.rows)
    }

    /// Where the list's preview shows the note's latest image; nil when it shows none.
    func listPreviewImagePlace(of note: NoteSnapshot) -> (attachment: AttachmentSnapshot, index: Int, columns: Int, rows: Int)? {
        if case .detail = detailUnderneath(screen) { return nil }
        guard let latest = note.latestAttachment, latest.imageData != nil, let area = listAreas.preview,
              let place = previewImageRows(in: area) else { return nil }
        return (latest, note.attachments.count - 1, area.width, place.rows)
    }

    func detailUnderneath(_ screen: Screen) -> Screen {
        switch screen {
        case .prompt(let state): detailUnderneath(state.previous)
        case .confirm(let state): detailUnderneath(state.previous)
        default: screen
        }
    }

    /// A cached image preview of a note's attachment; nil while it is being made in the background.
    func preview(_ attachment: AttachmentSnapshot, note: NoteSnapshot, index: Int, columns: Int, rows: Int) -> RenderedPreview? {
        guard attachment.imageData != nil else { return .unavailable }
        guard let key = previewKey(attachment, note: note, index: index, columns: columns, rows: rows) else { return .hidden }
        return previews.preview(key: key)
    }

    /// What the preview of an attachment at a size is cached by; nil when no image is drawn.
    func previewKey(_ attachment: AttachmentSnapshot, note: NoteSnapshot, index: Int, columns: Int, rows: Int) -> PreviewKey? {
        guard let data = attachment.imageData, graphics.kind != .none else { return nil }
        return PreviewKey(note: note.id, image: index, bytes: data.count, columns: columns, rows: rows, graphics: graphics)
    }
}
