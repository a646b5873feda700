import UnCloudNotesKit

extension NotesState {
    /// What the next frame shows and the app has not read or made yet, as effects for the runner
    /// (the list's visible rows, the note shown, then its image previews at the size the frame
    /// draws them). The runner calls it once the effects of a key or event are done, until it asks
    /// for nothing: every read comes back as data or as a failure remembered, and every preview is
    /// asked for once, so it does come to an end.
    mutating func prepareFrame() -> [NotesEffect] {
        listScreen.listTop = listTopKeepingSelection()
        keepLayoutShown()
        var reads: [NotesEffect] = []
        let visible = listScreen.listTop..<min(listScreen.listTop + listPage, listScreen.notes.count)
        // A screenful or two from the first row not read, as the list scrolls on.
        if let first = visible.first(where: { !listScreen.notes.missingRows(in: $0..<($0 + 1)).isEmpty }) {
            reads.append(.readRows(listScreen.notes.missingRows(in: first..<(first + listPage * 2))))
        }
        if let id = noteShown(on: screen), snapshots[id] == nil, !unreadableNotes.contains(id) {
            reads.append(.readNote(id))
        }
        return reads + previewsToMake().map { .background(.makePreview($0.key, $0.image)) }
    }

    /// The previews of the images the screen shows that are not made or asked for yet, now noted
    /// as asked for.
    private mutating func previewsToMake() -> [(key: PreviewKey, image: NoteImage)] {
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
