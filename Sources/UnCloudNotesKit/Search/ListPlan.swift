import Foundation

/// How one list query is answered, decided once: the store alone when it can (one statement in
/// the order's fetch index, the search compared in SQL), the search index's pages when its order
/// is the list's, or, when matches come from several places (the search index and tag names),
/// those matches ordered as the list orders them. Only the matches are sorted, never every note.
struct ListPlan {
    enum Strategy {
        /// One statement: conditions (and the search, by the store's folding) in the list's order.
        case scan(NoteBook.ListConditions)
        /// The search index's pages (newest first), after the pinned matches, which the store finds.
        case searchIndex(search: String, pinned: [Int64])
        /// These matches, ordered by the list's order after the conditions are applied.
        case matches(keys: [Int64], NoteBook.ListConditions)
    }

    let book: NoteBook
    let strategy: Strategy

    /// Nil when the query names a tag the store does not hold: no note matches.
    init?(_ query: NoteQuery, in book: NoteBook, usingIndex: Bool) throws {
        self.book = book
        let capabilities = book.capabilities
        if query.tag != nil { try capabilities.require(.tags) }
        if query.pinnedOnly { try capabilities.require(.pins) }
        if query.sort == .modified { try capabilities.require(.modifiedDates) }
        var query = query
        // A search of one `#word` is that tag, as rows show tags.
        if let search = query.searchText, let tag = TagName.named(bySearch: search), capabilities.hasTags,
           query.tag == nil || TagName.stored(query.tag ?? "") == tag {
            query.tag = tag
            query.search = nil
        }
        var conditions = NoteBook.ListConditions(query: query, tagKeys: nil, matchesSearch: true)
        if let tag = query.tag {
            guard let key = try book.tagKey(named: TagName.stored(tag)) else { return nil }
            conditions.tagKeys = [key]
        }
        guard let search = query.searchText else {
            strategy = .scan(conditions)
            return
        }
        let taggedMatches = capabilities.hasTags ? try book.tagKeys(containing: search.precomposedStringWithCanonicalMapping) : []
        if taggedMatches.isEmpty {
            if usingIndex, book.searchIndex != nil, query.sort == .created, !query.hasFilters {
                let pinned = capabilities.hasPins
                    ? try book.scannedIDs(.scan(NoteBook.ListConditions(query: NoteQuery(search: search, pinnedOnly: true), tagKeys: nil,
                                                                        matchesSearch: true), page: ListPage())).map(\.number)
                    : []
                strategy = .searchIndex(search: search, pinned: pinned)
            } else {
                strategy = .scan(conditions)
            }
            return
        }
        // Notes matching by text (from the index when it can answer) and notes with a matching tag.
        var textMatches = usingIndex ? book.indexedKeys(search, page: ListPage()) : nil
        if textMatches == nil { textMatches = try book.scannedIDs(.scan(conditions, page: ListPage())).map(\.number) }
        var tagged = conditions
        tagged.matchesSearch = false
        tagged.tagKeys = taggedMatches
        let byTag = try book.scannedIDs(.scan(tagged, page: ListPage())).map(\.number)
        strategy = .matches(keys: Array(Set((textMatches ?? []) + byTag)), conditions)
    }

    /// One page of the notes, in the list's order.
    func ids(page: ListPage) throws -> [NoteID] {
        switch strategy {
        case .scan(let conditions):
            return try book.scannedIDs(.scan(conditions, page: page))
        case .searchIndex(let search, let pinned):
            let offset = max(page.offset, 0)
            // Enough of the index's answer to fill the page once pinned notes are taken out of it.
            let wanted = page.limit.map { offset + max($0, 0) + pinned.count }
            guard let indexed = book.indexedKeys(search, page: ListPage(limit: wanted)) else {
                return try book.scannedIDs(.scan(NoteBook.ListConditions(query: NoteQuery(search: search), tagKeys: nil, matchesSearch: true), page: page))
            }
            let pinnedSet = Set(pinned)
            return Self.window(pinned + indexed.filter { !pinnedSet.contains($0) }, page).map(NoteID.init)
        case .matches(let keys, let conditions):
            let rows = try book.sortKeys(of: keys, meeting: conditions).sorted { a, b in
                if a.pinned != b.pinned { return a.pinned }
                if a.date != b.date { return (a.date ?? .distantPast) > (b.date ?? .distantPast) }
                return a.key > b.key
            }
            return Self.window(rows.map(\.key), page).map(NoteID.init)
        }
    }

    private static func window(_ keys: [Int64], _ page: ListPage) -> [Int64] {
        let start = min(max(page.offset, 0), keys.count)
        let end = page.limit.map { min(start + max($0, 0), keys.count) } ?? keys.count
        return Array(keys[start..<end])
    }
}
