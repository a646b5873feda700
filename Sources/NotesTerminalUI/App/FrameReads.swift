import UnCloudNotesKit

extension NotesState {
    /// What the next frame shows and the app has not read yet, as reads for the runner (the list's
    /// visible rows, the note shown). The runner calls it once the effects of a key or event are
    /// done, until it asks for nothing: every read comes back as data or as a failure remembered,
    /// so it does come to an end.
    mutating func prepareFrame() -> [NotesEffect] {
        listScreen.listTop = listTopKeepingSelection()
        var reads: [NotesEffect] = []
        let visible = listScreen.listTop..<min(listScreen.listTop + listPage, listScreen.notes.count)
        // A screenful or two from the first row not read, as the list scrolls on.
        if let first = visible.first(where: { !listScreen.notes.missingRows(in: $0..<($0 + 1)).isEmpty }) {
            reads.append(.readRows(listScreen.notes.missingRows(in: first..<(first + listPage * 2))))
        }
        if let id = noteShown(on: screen), snapshots[id] == nil, !unreadableNotes.contains(id) {
            reads.append(.readNote(id))
        }
        return reads
    }

    /// The previews of the images the screen shows that are not made or asked for yet, now noted
    /// as asked for.
    mutating func previewsToMake() -> [(key: PreviewKey, image: NoteImage)] {
        guard let note = noteShown(on: screen).flatMap(snapshot) else { return [] }
        var places: [(attachment: AttachmentSnapshot, index: Int, columns: Int, rows: Int)] = []
        if case .detail(let state) = detailUnderneath(screen) {
            places = detailImagesShown(of: note, selected: state.attachment).compactMap { image in
                image.slot.picture.map { (image.attachment, image.slot.index, $0.width, $0.height) }
            }
        } else if let place = listPreviewImagePlace(of: note) {
            places = [place]
        }
        return places.compactMap { place in
            guard let data = place.attachment.imageData,
                  let key = previewKey(place.attachment, note: note, index: place.index, columns: place.columns, rows: place.rows),
                  previews.request(key) else { return nil }
            return (key, NoteImage(storedData: data))
        }
    }
}

extension NotesApp {
    /// Starts making, in the background, the previews of the images the frame about to be drawn
    /// shows, those not made or asked for yet: called as a frame is drawn, so only previews at the
    /// size drawn are made.
    public func startPreviews() {
        for wanted in state.previewsToMake() {
            backgroundPreviews.request(key: wanted.key, image: wanted.image, colors: colors)
        }
    }
}
