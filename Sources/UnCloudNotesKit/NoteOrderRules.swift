import Foundation

/// The order of a note's images, one rule for the app and for sync: by when each was attached,
/// then by when it was stored. Sync writes a note's images in this order and a receiving
/// machine stores them in the order it reads them, so both show them alike; sync once ordered
/// ties by identifier while the app ordered them by object ID, and two machines disagreed.
public enum AttachmentOrder {
    /// Whether the image `a` comes before `b`; `stored` is its object ID's description.
    public static func isOlder(_ a: (date: Date?, stored: String), than b: (date: Date?, stored: String)) -> Bool {
        (a.date ?? .distantPast, a.stored) < (b.date ?? .distantPast, b.stored)
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
