import Foundation
import ManagedStore

/// List rows through the engine's property fetch: one statement streams the rows and counts
/// attachments (and, at v5, names each row's tags' keys), so a million notes list at the speed
/// of the store instead of one fetch per note. This file only says which properties of a note
/// make a row, and which conditions and order a list query asks the store for.
extension NoteBook {
    /// Which notes a listing query reads.
    enum RowSelection {
        /// The notes of the query (`search` matched in title or body by the store), in its
        /// order, one page.
        case scan(ListConditions, page: ListPage)
        /// These notes, in no particular order.
        case keys([Int64])
        /// Those of these notes that meet the conditions (the search left out), in no order.
        case keysMeeting([Int64], ListConditions)
        /// The notes that meet a predicate, in no order.
        case meeting(ObjectPredicate)
    }

    /// A query as the store answers it: the tag resolved to its key.
    struct ListConditions {
        var query: NoteQuery
        /// Only notes holding one of these tags (nil: no tag condition).
        var tagKeys: [Int64]?
        /// Whether the store matches `query.search` in title and body.
        var matchesSearch: Bool
    }

    /// Calls `body` for each row the selection reads.
    func forEachScannedRow(_ selection: RowSelection, _ body: (NoteRow) throws -> Void) throws {
        let columns = RowColumns(capabilities)
        let request = request(selection, properties: columns.read.properties)
        var names = try tagNamesIfNeeded(columns.tags != nil)
        try context.forEachRow(of: request) { row in
            var noteRow = NoteRow(id: NoteID(row.primaryKey), title: columns.title.value(in: row), dateCreated: columns.created.value(in: row),
                                  imageCount: columns.imageCount?.value(in: row) ?? 0)
            if let modified = columns.modified { noteRow.dateModified = modified.value(in: row) }
            if let pinned = columns.pinned { noteRow.pinned = pinned.value(in: row) }
            if let tags = columns.tags {
                let keys = tags.keys(in: row)
                if keys.contains(where: { names[$0] == nil }) { names = try readTagNames() }
                noteRow.tags = keys.compactMap { names[$0] }.sorted()
            }
            try body(noteRow)
        }
    }

    /// The IDs of the notes the selection reads, without their titles or image counts.
    func scannedIDs(_ selection: RowSelection) throws -> [NoteID] {
        var ids: [NoteID] = []
        try context.forEachPrimaryKey(of: request(selection, properties: [])) { ids.append(NoteID($0)) }
        return ids
    }

    /// The keys, pin flags and sort dates of these notes that meet the conditions, to order
    /// matches that come from several places (the search index, tags) as the list orders them.
    func sortKeys(of keys: [Int64], meeting conditions: ListConditions) throws -> [(key: Int64, pinned: Bool, date: Date?)] {
        var read = RowProperties()
        let date = read.date(conditions.query.sort.attribute)
        let pinned = capabilities.hasPins ? read.flag("pinned") : nil
        var found: [(key: Int64, pinned: Bool, date: Date?)] = []
        for chunk in stride(from: 0, to: keys.count, by: Self.rowsPerQuery) {
            let request = request(.keysMeeting(Array(keys[chunk..<min(chunk + Self.rowsPerQuery, keys.count)]), conditions), properties: read.properties)
            try context.forEachRow(of: request) { row in
                found.append((row.primaryKey, pinned?.value(in: row) ?? false, date.value(in: row)))
            }
        }
        return found
    }

    private func request(_ selection: RowSelection, properties: [PropertyFetchRequest.Property]) -> PropertyFetchRequest {
        var request = PropertyFetchRequest(entityName: Self.noteEntity, properties: properties)
        switch selection {
        case .scan(let conditions, let page):
            apply(conditions, to: &request)
            request.sortDescriptors = sortDescriptors(conditions.query.sort)
            request.fetchLimit = page.limit
            request.fetchOffset = max(page.offset, 0)
        case .keys(let keys):
            request.primaryKeys = keys
        case .keysMeeting(let keys, var conditions):
            conditions.matchesSearch = false
            apply(conditions, to: &request)
            request.primaryKeys = keys
        case .meeting(let predicate):
            request.predicate = predicate
        }
        return request
    }

    /// Pinned notes first (v5), then newest first by the sort date; ties by key, so the
    /// fetch index on these columns gives the order.
    func sortDescriptors(_ sort: NoteSort) -> [ManagedStore.SortDescriptor] {
        let byDate = ManagedStore.SortDescriptor(sort.attribute, ascending: false)
        return capabilities.hasPins ? [ManagedStore.SortDescriptor("pinned", ascending: false), byDate] : [byDate]
    }

    private func apply(_ conditions: ListConditions, to request: inout PropertyFetchRequest) {
        let query = conditions.query
        var parts: [ObjectPredicate] = []
        if conditions.matchesSearch, let search = query.searchText {
            parts.append(.or([Self.contains(search, in: "title"), Self.contains(search, in: "body")]))
        }
        if query.pinnedOnly {
            parts.append(.comparison(.keyPath(base: nil, components: ["pinned"]), .equal, .constant(.bool(true)), []))
        }
        if let since = query.since {
            parts.append(.comparison(.keyPath(base: nil, components: [query.sort.attribute]), .greaterOrEqual, .constant(.date(since)), []))
        }
        if let until = query.until {
            parts.append(.comparison(.keyPath(base: nil, components: [query.sort.attribute]), .less, .constant(.date(until)), []))
        }
        if !parts.isEmpty { request.predicate = parts.count == 1 ? parts[0] : .and(parts) }
        if let tagKeys = conditions.tagKeys { request.relatedTo = .init(relationship: "tags", primaryKeys: tagKeys) }
    }

    /// `key CONTAINS[cd] search`: the one definition of a search match, ignoring case and accents.
    static func contains(_ search: String, in key: String) -> ObjectPredicate {
        .comparison(.keyPath(base: nil, components: [key]), .contains, .constant(.string(search)),
                    [.caseInsensitive, .diacriticInsensitive])
    }
}

/// Which properties make a row at the book's version, each with the column it is read from.
private struct RowColumns {
    var read = RowProperties()
    let title: RowColumn<String>
    let created: RowColumn<Date?>
    var imageCount: RowColumn<Int>?
    var modified: RowColumn<Date?>?
    var pinned: RowColumn<Bool>?
    var tags: MemberKeysColumn?

    init(_ capabilities: NoteCapabilities) {
        title = read.text("title")
        created = read.date("dateCreated")
        // How this version's notes hold images, as a property the store reads: none in v1, the
        // note's own `image` in v2, its `attachments` from v3.
        switch capabilities.images {
        case .none: break
        case .one: imageCount = read.add(.hasValue("image"), as: Self.imageCount)
        case .several: imageCount = read.add(.count("attachments"), as: Self.imageCount)
        }
        if capabilities.recordsModification { modified = read.date("dateModified") }
        if capabilities.hasPins { pinned = read.flag("pinned") }
        if capabilities.hasTags { tags = read.addMemberKeys(of: "tags") }
    }

    /// v2's "has an image" or v3's count of attachments, as a number of images.
    private static func imageCount(from value: AttributeValue?) -> Int {
        switch value {
        case .bool(let present)?: present ? 1 : 0
        case .integer(let count)?: Int(clamping: count)
        default: 0
        }
    }
}
