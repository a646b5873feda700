import UnCloudNotesKit

/// What a preview is made for: a note's image at a size, drawn one way. Previews are cached by it.
public struct PreviewKey: Hashable, Sendable {
    let note: NoteID
    /// The attachment's position in the note, and its size in bytes (a replaced image differs).
    let image: Int
    let bytes: Int
    let columns: Int
    let rows: Int
    let graphics: PreviewGraphics
}

/// Rendered image previews, by note, attachment, size and protocol, so scrolling, searching and
/// redrawing do not decode again. A preview not yet made is asked for once and shown when it arrives.
struct PreviewCache {
    private var entries: [PreviewKey: RenderedPreview] = [:]
    private var order: [PreviewKey] = []
    private var requested: Set<PreviewKey> = []
    /// How many previews were made (decoded and rendered), not taken from the cache.
    private(set) var madeCount = 0

    /// The cached preview; nil while it is not made.
    func preview(key: PreviewKey) -> RenderedPreview? {
        entries[key]
    }

    /// Notes that the preview is being made. - Returns: false when it is made or asked for already.
    mutating func request(_ key: PreviewKey) -> Bool {
        entries[key] == nil && requested.insert(key).inserted
    }

    mutating func store(_ preview: RenderedPreview, key: PreviewKey) {
        guard requested.remove(key) != nil else { return }
        madeCount += 1
        entries[key] = preview
        order.append(key)
        if order.count > 16 { entries.removeValue(forKey: order.removeFirst()) }
    }

    /// Forgets the previews of one note, whose images changed; those under way are dropped when they arrive.
    mutating func remove(note: NoteID) {
        for key in entries.keys where key.note == note { entries[key] = nil }
        order.removeAll { $0.note == note }
        requested = requested.filter { $0.note != note }
    }

    mutating func removeAll() {
        entries = [:]
        order = []
        requested = []
    }
}
