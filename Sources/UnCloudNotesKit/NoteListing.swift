import Foundation
import ManagedStore

/// List rows through the engine's property fetch: one statement streams the rows and counts
/// attachments, so a million notes list at the speed of the store instead of one fetch per note.
/// This file only says which properties of a note make a row, as each model version stores them.
extension NoteBook {
    /// Which notes a listing query reads.
    enum RowSelection {
        /// Newest first, those whose title or body contains the text (all when nil), one page.
        case scan(search: String?, page: ListPage)
        /// These notes, in no particular order.
        case keys([Int64])
    }

    /// Calls `body` for each row the selection reads.
    func forEachScannedRow(_ selection: RowSelection, _ body: (NoteRow) throws -> Void) throws {
        let imageCount = imageCountProperty
        let properties: [PropertyFetchRequest.Property] = [.attribute("title"), .attribute("dateCreated")] + [imageCount].compactMap { $0 }
        try context.forEachRow(of: request(selection, properties: properties)) { row in
            try body(NoteRow(id: NoteID(row.primaryKey),
                             title: row.values[0]?.stringValue ?? "",
                             dateCreated: row.values[1]?.dateValue,
                             imageCount: imageCount == nil ? 0 : Self.imageCount(from: row.values[2])))
        }
    }

    /// The IDs of the notes the selection reads, without their titles or image counts.
    func scannedIDs(_ selection: RowSelection) throws -> [NoteID] {
        var ids: [NoteID] = []
        try context.forEachPrimaryKey(of: request(selection, properties: [])) { ids.append(NoteID($0)) }
        return ids
    }

    private func request(_ selection: RowSelection, properties: [PropertyFetchRequest.Property]) -> PropertyFetchRequest {
        var request = PropertyFetchRequest(entityName: Self.noteEntity, properties: properties)
        switch selection {
        case .scan(let search, let page):
            if let search, !search.isEmpty {
                request.predicate = .or([Self.contains(search, in: "title"), Self.contains(search, in: "body")])
            }
            request.sortDescriptors = [SortDescriptor("dateCreated", ascending: false)]
            request.fetchLimit = page.limit
            request.fetchOffset = max(page.offset, 0)
        case .keys(let keys):
            request.primaryKeys = keys
        }
        return request
    }

    /// `key CONTAINS[cd] search`: the one definition of a search match, ignoring case and accents.
    private static func contains(_ search: String, in key: String) -> ObjectPredicate {
        .comparison(.keyPath(base: nil, components: [key]), .contains, .constant(.string(search)),
                    [.caseInsensitive, .diacriticInsensitive])
    }

    /// How this version's notes hold images, as a property the store reads: none in v1, the
    /// note's own `image` in v2, its `attachments` from v3.
    private var imageCountProperty: PropertyFetchRequest.Property? {
        switch capabilities.images {
        case .none: nil
        case .one: .hasValue("image")
        case .several: .count("attachments")
        }
    }

    private static func imageCount(from value: AttributeValue?) -> Int {
        switch value {
        case .bool(let present)?: present ? 1 : 0
        case .integer(let count)?: Int(clamping: count)
        default: 0
        }
    }
}
