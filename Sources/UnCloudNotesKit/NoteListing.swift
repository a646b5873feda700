import Foundation
import GRDB
import ManagedStore

/// The store does not hold what the model says (a table or column is missing).
public enum NoteListingError: Error, CustomStringConvertible {
    case missingColumn(entity: String, attribute: String)

    public var description: String {
        switch self {
        case .missingColumn(let entity, let attribute): "the store does not match its model: \(entity) has no column for \(attribute)"
        }
    }
}

/// List rows straight from SQL: one statement streams the rows and counts attachments, so a
/// million notes list at the speed of the store instead of one fetch per note.
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
        try read(selection, columns: .rows) { reader, row in try body(Self.noteRow(reader, row)) }
    }

    /// One list row. `@_optimize(none)`: the Swift 6.3 optimizer crashes on this function in
    /// release builds ("found ownership error" while inlining GRDB's value decoding), whatever
    /// the way the values are read; unoptimized it compiles, and it is one call per row.
    @_optimize(none)
    private static func noteRow(_ reader: RowReader, _ row: Row) throws -> NoteRow {
        NoteRow(id: NoteID(try reader.primaryKey()),
                title: String.fromDatabaseValue(row["title"]) ?? "",
                dateCreated: Double.fromDatabaseValue(row["date"]).map(Date.init(timeIntervalSinceReferenceDate:)),
                imageCount: Int.fromDatabaseValue(row["images"]) ?? 0)
    }

    /// The IDs of the notes the selection reads, without their titles or image counts.
    func scannedIDs(_ selection: RowSelection) throws -> [NoteID] {
        var ids: [NoteID] = []
        try read(selection, columns: .keys) { reader, _ in ids.append(NoteID(try reader.primaryKey())) }
        return ids
    }

    private enum Columns { case keys, rows }

    private func read(_ selection: RowSelection, columns: Columns, _ body: (RowReader, Row) throws -> Void) throws {
        let query = try listQuery(selection, columns: columns)
        try context.store.database.read { db in
            let rows = try Row.fetchCursor(db, SQLRequest<Row>(literal: query.sql))
            while let row = try rows.next() {
                // Bookkeeping checked as for fetched objects: a damaged row is an error, never skipped.
                let reader = context.rowReader(row, table: query.table)
                _ = try reader.entity(in: context.schema)
                _ = try reader.integer("Z_OPT")
                try body(reader, row)
            }
        }
    }

    /// The query, as GRDB's SQL literal: identifiers quoted, values bound.
    private func listQuery(_ selection: RowSelection, columns: Columns) throws -> (sql: SQL, table: String) {
        guard let note = context.schema.entity(named: Self.noteEntity) else {
            throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: "its table")
        }
        func column(_ attribute: String) throws -> SQL {
            guard let column = note.attributeColumns[attribute] else { throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: attribute) }
            return "n.\(identifier: column.name)"
        }
        let (title, date) = (try column("title"), try column("dateCreated"))
        // Rows of other entities sharing the table are left out; any other Z_ENT (NULL, unknown) is
        // read, so that the row check reports it.
        let siblings = context.schema.entities.filter { $0.tableName == note.tableName && !note.kindNumbers.contains($0.number) }
        var conditions: [SQL] = siblings.isEmpty ? ["1"] : ["coalesce(n.Z_ENT IN \(siblings.map(\.number)), 0) = 0"]
        var tail: SQL = ""
        switch selection {
        case .scan(let search, let page):
            if let search, !search.isEmpty {
                let contains = Self.containsTest(search)
                conditions.append("(\(literal: contains(title)) OR \(literal: contains(try column("body"))))")
            }
            tail = "ORDER BY \(literal: date) DESC, n.Z_PK DESC LIMIT \(page.limit ?? -1) OFFSET \(max(page.offset, 0))"
        case .keys(let keys):
            conditions.append("n.Z_PK IN \(keys)")
        }
        let selected: SQL = columns == .keys
            ? ""
            : ", \(literal: title) AS title, \(literal: date) AS date, \(literal: try imageCountSQL(note: note)) AS images"
        let sql: SQL = """
            SELECT n.Z_PK, n.Z_ENT, n.Z_OPT\(literal: selected) FROM \(identifier: note.tableName) n
            WHERE \(literal: conditions.joined(separator: " AND ")) \(literal: tail)
            """
        return (sql, note.tableName)
    }

    /// SQL testing that a column contains the search text ignoring case and accents (`CONTAINS[cd]`),
    /// through the engine's SQL functions: `MS_FOLD_CONTAINS` (which reads each row's bytes in
    /// place) for an ASCII search, whose folded form is its lowercase, and the general
    /// `MS_COMPARE` otherwise.
    private static func containsTest(_ search: String) -> (SQL) -> SQL {
        if search.utf8.allSatisfy({ $0 < 0x80 }) {
            let pattern = search.lowercased()
            return { column in "MS_FOLD_CONTAINS(\(literal: column), \(pattern), 1)" }
        }
        let options = Int(ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).rawValue)
        return { column in "MS_COMPARE(\(ComparisonOperator.contains.rawValue), \(options), \(literal: column), \(search))" }
    }

    private func imageCountSQL(note: EntityStorage) throws -> SQL {
        switch capabilities.images {
        case .none:
            return "0"
        case .one:
            guard let image = note.attributeColumns["image"] else { throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: "image") }
            return "(n.\(identifier: image.name) IS NOT NULL)"
        case .several:
            switch note.toManyStorage["attachments"] {
            case .inverseForeignKey(let table, let column, _, _)?:
                return "(SELECT COUNT(*) FROM \(identifier: table) a WHERE a.\(identifier: column) = n.Z_PK)"
            case .joinTable(let table, let ownerColumn, _, _, _)?:
                return "(SELECT COUNT(*) FROM \(identifier: table) j WHERE j.\(identifier: ownerColumn) = n.Z_PK)"
            case nil:
                throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: "attachments")
            }
        }
    }
}
