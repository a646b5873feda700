/// Rendered image previews, by note, attachment and size, so scrolling, searching and redrawing
/// do not decode again. A preview not yet made is asked for once and shown when it arrives.
struct PreviewCache {
    private var entries: [String: [[Cell]]] = [:]
    private var order: [String] = []
    private var requested: Set<String> = []
    /// How many previews were made (decoded and rendered), not taken from the cache.
    private(set) var madeCount = 0

    /// The cached cells, or nil after calling `request` (only the first time for a key).
    mutating func cells(key: String, request: () -> Void) -> [[Cell]]? {
        if let known = entries[key] { return known }
        if requested.insert(key).inserted { request() }
        return nil
    }

    mutating func store(_ cells: [[Cell]], key: String) {
        guard requested.remove(key) != nil else { return }
        madeCount += 1
        entries[key] = cells
        order.append(key)
        if order.count > 16 { entries.removeValue(forKey: order.removeFirst()) }
    }

    mutating func removeAll() {
        entries = [:]
        order = []
        requested = []
    }
}
