import UnCloudNotesKit

/// One image's place in the detail view: its header (number, size, caption) and its picture below.
struct DetailImageSlot: Equatable {
    let index: Int
    let header: Rect
    /// nil when the slot has no room for a picture.
    let picture: Rect?
}

/// One image as the detail view shows it, read beforehand by `NotesApp.frame()`.
struct DetailImage {
    let slot: DetailImageSlot
    let attachment: AttachmentSnapshot
    /// From the image's header; nil when it cannot be read (the size is then left out).
    let pixelSize: (width: Int, height: Int)?
    /// nil while it is being made.
    let preview: RenderedPreview?
}

extension ScreenLayout {
    /// A picture smaller than this many rows is no longer large: fewer images share the area.
    static var detailPictureMinimumRows: Int { 6 }

    /// The detail view shows every image of the note, stacked in its image area, each large: as
    /// many as fit with pictures of `detailPictureMinimumRows` rows, sharing the area evenly, from
    /// the selected one on (←→ move through the rest).
    func detailImageSlots(count: Int, selected: Int, in area: Rect) -> [DetailImageSlot] {
        guard count > 0, area.height >= 3 else { return [] }
        let headerRows = supportsCaptions ? 2 : 1
        let visible = max(1, min(count, area.height / (headerRows + 1 + Self.detailPictureMinimumRows)))
        let slotHeight = area.height / visible
        let first = max(0, min(selected, count - visible))
        return (first..<(first + visible)).map { index in
            let top = area.top + (index - first) * slotHeight
            let separator = index == first + visible - 1 ? 0 : 1
            let pictureRows = slotHeight - headerRows - 1 - separator
            let picture = pictureRows >= 2 ? Rect(top: top + headerRows + 1, left: area.left, width: area.width, height: pictureRows) : nil
            return DetailImageSlot(index: index, header: Rect(top: top, left: area.left, width: area.width, height: headerRows), picture: picture)
        }
    }
}

extension NotesState {
    /// The images the detail view shows of the note, each with its preview at its slot's size.
    func detailImagesShown(of note: NoteSnapshot, selected: Int) -> [DetailImage] {
        guard !note.attachments.isEmpty, let area = detailAreas(hasImages: true).images else { return [] }
        let selected = min(selected, note.attachments.count - 1)
        return detailImageSlots(count: note.attachments.count, selected: selected, in: area).map { slot in
            let attachment = note.attachments[slot.index]
            // A header that cannot be read only leaves the size out of the header line.
            let pixelSize = attachment.imageData.flatMap { try? NoteImage(storedData: $0).pixelSize() }
            let shown: RenderedPreview? = slot.picture.flatMap { picture in
                self.preview(attachment, note: note, index: slot.index, columns: picture.width, rows: picture.height)
            }
            return DetailImage(slot: slot, attachment: attachment, pixelSize: pixelSize, preview: shown)
        }
    }
}

extension NotesFrame {
    /// Each image shown: "Image k of n · W×H px" (reversed for the selected one when several
    /// show), its caption in v4, and its picture.
    func drawDetailImages(of note: NoteSnapshot, selected: Int, into buffer: inout CellBuffer) {
        let selected = min(selected, note.attachments.count - 1)
        for image in detailImages {
            var header = "Image \(image.slot.index + 1) of \(note.attachments.count)"
            if let pixels = image.pixelSize { header += " · \(pixels.width)×\(pixels.height) px" }
            let style: CellStyle = detailImages.count > 1 && image.slot.index == selected ? [.bold, .reverse] : .bold
            buffer.put(CellBuffer.truncate(header, to: image.slot.header.width), in: image.slot.header, row: 0, style: style)
            if supportsCaptions {
                let text = image.attachment.caption.flatMap { $0.isEmpty ? nil : $0 } ?? "(no caption)"
                buffer.put(CellBuffer.truncate("Caption: " + text, to: image.slot.header.width), in: image.slot.header, row: 1)
            }
            guard let picture = image.slot.picture else { continue }
            placePreview(image.preview, into: &buffer, area: picture, top: 0)
        }
    }
}
