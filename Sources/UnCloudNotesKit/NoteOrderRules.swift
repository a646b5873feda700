import Foundation

/// The order of a note's images, one rule for the app and for sync: by when each was attached,
/// then (v5) by identifier, the same on every machine, then by when it was stored. Ordering
/// ties by object ID alone gave two synced machines two orders.
public enum AttachmentOrder {
    /// Whether the image `a` comes before `b`.
    public static func isOlder(_ a: (date: Date?, identifier: UUID?, stored: String), than b: (date: Date?, identifier: UUID?, stored: String)) -> Bool {
        let (first, second) = (a.date ?? .distantPast, b.date ?? .distantPast)
        if first != second { return first < second }
        if let x = a.identifier, let y = b.identifier, x != y { return x.uuidString < y.uuidString }
        return a.stored < b.stored
    }
}

/// Display indexes, one rule for every writer: the next after the store's largest, and the
/// largest possible one refused (a damaged or hand-edited store), never wrapped or repeated.
public enum DisplayIndex {
    public static func after(_ index: Int64, store: String) throws(NoteBookError) -> Int64 {
        let (next, overflow) = index.addingReportingOverflow(1)
        guard !overflow else { throw .displayIndexExhausted(store: store, index: index) }
        return next
    }
}
