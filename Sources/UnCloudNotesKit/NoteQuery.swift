import Foundation

/// The order of the notes list: newest first by the chosen date, pinned notes (v5) before the
/// rest. Each order has its fetch index in the v5 model (`byPinnedThenDateCreated`,
/// `byPinnedThenDateModified`), so a page is read from the index instead of sorting every note.
public enum NoteSort: String, CaseIterable, Sendable {
    case created
    case modified

    /// The note attribute the order reads.
    var attribute: String {
        switch self {
        case .created: "dateCreated"
        case .modified: "dateModified"
        }
    }

    /// The other order, for a key that switches between them.
    public var toggled: NoteSort { self == .created ? .modified : .created }
}

/// Which notes the list shows and in which order: the one description the screens and
/// `notes list` share. Empty means every note, newest first.
public struct NoteQuery: Equatable, Sendable {
    /// Title, body or a tag name contains it (ignoring case and accents); nil or empty for all.
    public var search: String?
    /// Only notes with this tag (v5).
    public var tag: String?
    /// Only pinned notes (v5).
    public var pinnedOnly: Bool
    /// Only notes whose sort date is at or after this.
    public var since: Date?
    /// Only notes whose sort date is before this.
    public var until: Date?
    public var sort: NoteSort

    public init(search: String? = nil, tag: String? = nil, pinnedOnly: Bool = false, since: Date? = nil, until: Date? = nil,
                sort: NoteSort = .created) {
        self.search = search
        self.tag = tag
        self.pinnedOnly = pinnedOnly
        self.since = since
        self.until = until
        self.sort = sort
    }

    /// The search text, nil when there is none.
    var searchText: String? { search.flatMap { $0.isEmpty ? nil : $0 } }

    /// Whether anything but the search narrows the list.
    var hasFilters: Bool { tag != nil || pinnedOnly || since != nil || until != nil }
}
