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
        try read(selection, columns: .rows) { reader, row in
            try body(NoteRow(id: NoteID(try reader.primaryKey()),
                             title: String.fromDatabaseValue(row["title"]) ?? "",
                             dateCreated: Double.fromDatabaseValue(row["date"]).map(Date.init(timeIntervalSinceReferenceDate:)),
                             imageCount: Int.fromDatabaseValue(row["images"]) ?? 0))
        }
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
            let rows = try Row.fetchCursor(db, sql: query.sql, arguments: StatementArguments(query.arguments))
            while let row = try rows.next() {
                // Bookkeeping checked as for fetched objects: a damaged row is an error, never skipped.
                let reader = context.rowReader(row, table: query.table)
                _ = try reader.entity(in: context.schema)
                _ = try reader.integer("Z_OPT")
                try body(reader, row)
            }
        }
    }

    private func listQuery(_ selection: RowSelection, columns: Columns) throws -> (sql: String, arguments: [DatabaseValue], table: String) {
        guard let note = context.schema.entity(named: Self.noteEntity) else {
            throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: "its table")
        }
        func column(_ attribute: String) throws -> String {
            guard let column = note.attributeColumns[attribute] else { throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: attribute) }
            return "n.\(column.name)"
        }
        let (title, date) = (try column("title"), try column("dateCreated"))
        // Rows of other entities sharing the table are left out; any other Z_ENT (NULL, unknown) is
        // read, so that the row check reports it.
        let siblings = context.schema.entities.filter { $0.tableName == note.tableName && !note.kindNumbers.contains($0.number) }
        var conditions = siblings.isEmpty ? ["1"] : ["coalesce(n.Z_ENT IN (\(siblings.map { String($0.number) }.joined(separator: ", "))), 0) = 0"]
        var arguments: [DatabaseValue] = []
        var tail = ""
        switch selection {
        case .scan(let search, let page):
            if let search, !search.isEmpty {
                let (test, pattern) = Self.containsTest(search)
                conditions.append("(\(test(title)) OR \(test(try column("body"))))")
                arguments += [pattern, pattern]
            }
            tail = "ORDER BY \(date) DESC, n.Z_PK DESC LIMIT ? OFFSET ?"
            arguments += [(page.limit ?? -1).databaseValue, max(page.offset, 0).databaseValue]
        case .keys(let keys):
            conditions.append("n.Z_PK IN (\(keys.map { _ in "?" }.joined(separator: ", ")))")
            arguments += keys.map(\.databaseValue)
        }
        let selected = columns == .keys ? "" : ", \(title) AS title, \(date) AS date, \(try imageCountSQL(note: note)) AS images"
        let sql = "SELECT n.Z_PK, n.Z_ENT, n.Z_OPT\(selected) FROM \(note.tableName) n WHERE \(conditions.joined(separator: " AND ")) \(tail)"
        return (sql, arguments, note.tableName)
    }

    /// SQL testing that a column contains the search text ignoring case and accents (`CONTAINS[cd]`),
    /// through the engine's SQL functions: `MS_FOLD_CONTAINS` (which reads each row's bytes in
    /// place) for an ASCII search, whose folded form is its lowercase, and the general
    /// `MS_COMPARE` otherwise.
    private static func containsTest(_ search: String) -> (sql: (String) -> String, pattern: DatabaseValue) {
        if search.utf8.allSatisfy({ $0 < 0x80 }) {
            return ({ "MS_FOLD_CONTAINS(\($0), ?, 1)" }, search.lowercased().databaseValue)
        }
        let options = ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).rawValue
        return ({ "MS_COMPARE('\(ComparisonOperator.contains.rawValue)', \(options), \($0), ?)" }, search.databaseValue)
    }

    private func imageCountSQL(note: EntityStorage) throws -> String {
        switch capabilities.images {
        case .none:
            return "0"
        case .one:
            guard let image = note.attributeColumns["image"] else { throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: "image") }
            return "(n.\(image.name) IS NOT NULL)"
        case .several:
            switch note.toManyStorage["attachments"] {
            case .inverseForeignKey(let table, let column, _, _)?:
                return "(SELECT COUNT(*) FROM \(table) a WHERE a.\(column) = n.Z_PK)"
            case .joinTable(let table, let ownerColumn, _, _, _)?:
                return "(SELECT COUNT(*) FROM \(table) j WHERE j.\(ownerColumn) = n.Z_PK)"
            case nil:
                throw NoteListingError.missingColumn(entity: Self.noteEntity, attribute: "attachments")
            }
        }
    }
}
