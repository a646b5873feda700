import Foundation
import GRDB
import ManagedStore

/// One row of the notes list: what `notes list` prints, without loading bodies or images.
public struct NoteListRow: Equatable, Sendable {
    /// The note's number (its primary key), as the commands take it.
    public var number: Int64
    public var title: String
    public var dateCreated: Date?
    public var imageCount: Int
}

/// Which page of the list to read.
public struct ListPage: Equatable, Sendable {
    public var limit: Int?
    public var offset: Int

    public init(limit: Int? = nil, offset: Int = 0) {
        self.limit = limit
        self.offset = offset
    }
}

/// A list row could not be read: the store's tables do not hold what the model says.
public enum NoteListingError: Error, CustomStringConvertible {
    case missingColumn(entity: String, attribute: String)
    case query(underlying: Error)

    public var description: String {
        switch self {
        case .missingColumn(let entity, let attribute): "the store does not match its model: \(entity) has no column for \(attribute)"
        case .query(let underlying): "cannot read the notes list: \(underlying)"
        }
    }
}

extension NoteBook {
    /// Calls `body` for each note, newest first, from one SQL query that streams the rows and
    /// counts attachments in the same statement, so a million notes list at the speed of the
    /// store instead of one fetch per note. `search` matches title or body, ignoring case and
    /// accents, as `searchPredicate` does (through the engine's `MS_COMPARE` SQL function).
    public func forEachListRow(matching search: String? = nil, page: ListPage = ListPage(), _ body: (NoteListRow) throws -> Void) throws {
        let query = try listQuery(matching: search, page: page)
        let store = context.store
        do {
            try store.database.read { db in
                let rows = try Row.fetchCursor(db, sql: query.sql, arguments: StatementArguments(query.arguments))
                while let row = try rows.next() {
                    // Bookkeeping checked as for fetched objects: a damaged row is an error, never skipped.
                    let reader = context.rowReader(row, table: query.table)
                    _ = try reader.entity(in: context.schema)
                    _ = try reader.integer("Z_OPT")
                    try body(NoteListRow(number: try reader.primaryKey(),
                                         title: String.fromDatabaseValue(row["title"]) ?? "",
                                         dateCreated: Double.fromDatabaseValue(row["date"]).map(Date.init(timeIntervalSinceReferenceDate:)),
                                         imageCount: Int.fromDatabaseValue(row["images"]) ?? 0))
                }
            }
        } catch let error as DatabaseError {
            throw NoteListingError.query(underlying: error)
        }
    }

    private func listQuery(matching search: String?, page: ListPage) throws -> (sql: String, arguments: [DatabaseValue], table: String) {
        guard let note = context.schema.entity(named: "Note") else { throw NoteListingError.missingColumn(entity: "Note", attribute: "its table") }
        func column(_ attribute: String) throws -> String {
            guard let column = note.attributeColumns[attribute] else { throw NoteListingError.missingColumn(entity: "Note", attribute: attribute) }
            return "n.\(column.name)"
        }
        let (title, date) = (try column("title"), try column("dateCreated"))
        // Rows of other entities sharing the table are left out; any other Z_ENT (NULL, unknown) is
        // read, so that the row check reports it.
        let siblings = context.schema.entities.filter { $0.tableName == note.tableName && !note.kindNumbers.contains($0.number) }
        var conditions = siblings.isEmpty ? ["1"] : ["coalesce(n.Z_ENT IN (\(siblings.map { String($0.number) }.joined(separator: ", "))), 0) = 0"]
        var arguments: [DatabaseValue] = []
        if let search {
            let (test, pattern) = Self.containsTest(search)
            conditions.append("(\(test(title)) OR \(test(try column("body"))))")
            arguments += [pattern, pattern]
        }
        let sql = """
            SELECT n.Z_PK, n.Z_ENT, n.Z_OPT, \(title) AS title, \(date) AS date, \(try imageCountSQL(note: note)) AS images FROM \(note.tableName) n
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(date) DESC, n.Z_PK DESC LIMIT ? OFFSET ?
            """
        arguments += [(page.limit ?? -1).databaseValue, page.offset.databaseValue]
        return (sql, arguments, note.tableName)
    }

    /// SQL testing that a column contains the search text ignoring case and accents, as
    /// `searchPredicate` does, through the engine's SQL functions: `MS_FOLD_CONTAINS` (which reads
    /// each row's bytes in place) for an ASCII search, whose folded form is its lowercase, and the
    /// general `MS_COMPARE` otherwise.
    private static func containsTest(_ search: String) -> (sql: (String) -> String, pattern: DatabaseValue) {
        if !search.isEmpty, search.utf8.allSatisfy({ $0 < 0x80 }) {
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
            guard let image = note.attributeColumns["image"] else { throw NoteListingError.missingColumn(entity: "Note", attribute: "image") }
            return "(n.\(image.name) IS NOT NULL)"
        case .attachments:
            switch note.toManyStorage["attachments"] {
            case .inverseForeignKey(let table, let column, _, _)?:
                return "(SELECT COUNT(*) FROM \(table) a WHERE a.\(column) = n.Z_PK)"
            case .joinTable(let table, let ownerColumn, _, _, _)?:
                return "(SELECT COUNT(*) FROM \(table) j WHERE j.\(ownerColumn) = n.Z_PK)"
            case nil:
                throw NoteListingError.missingColumn(entity: "Note", attribute: "attachments")
            }
        }
    }
}
