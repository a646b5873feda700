internal import GRDB

/// Tombstones: the values of attributes marked "Preserve After Deletion" (`preserveAfterDeletion`),
/// kept in `ACHANGE` for a deleted object so that a reader of the history knows which object went
/// (an identifier, say). Public write-ups say Core Data keeps them in extra columns of `ACHANGE`;
/// their names are not documented (docs/store-format.md). The engine writes them to
/// `ZTOMBSTONE0`, `ZTOMBSTONE1`, …: the entity's preserved attributes (inherited ones included) in
/// order of their names, columns added to `ACHANGE` when a model needs more than it has.
struct Tombstones {
    /// The entity's preserved attributes, in column order.
    let attributes: [AttributeDescription]

    init(entity: String, model: ManagedObjectModel) {
        attributes = model.allAttributes(of: entity)
            .filter { $0.preservesValueAfterDeletion && !$0.isTransient }
            .sorted { $0.name < $1.name }
    }

    static func column(_ index: Int) -> String { "ZTOMBSTONE\(index)" }

    /// Adds the tombstone columns `ACHANGE` lacks for `count` values (in the save's transaction).
    static func ensureColumns(_ count: Int, in db: Database) throws {
        guard count > 0 else { return }
        let existing = Set(try existingColumns(in: db))
        for index in 0..<count where !existing.contains(column(index)) {
            // No declared type (BLOB affinity): each row keeps the value as its attribute stores it.
            try db.execute(literal: "ALTER TABLE ACHANGE ADD COLUMN \(identifier: column(index))")
        }
    }

    /// `ACHANGE`'s columns, read from SQLite itself: GRDB's schema cache does not see a column
    /// another process added since this connection last looked.
    static func existingColumns(in db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA table_info(ACHANGE)").compactMap { $0["name"] as String? }
    }

    /// The stored values of a row about to be deleted, in column order.
    func values(of storage: EntityStorage, primaryKey: Int64, in db: Database) throws -> [DatabaseValue] {
        guard !attributes.isEmpty else { return [] }
        let columns = attributes.map { attribute -> SQL in storage.attributeColumns[attribute.name].map { "\(identifier: $0.name)" } ?? "NULL" }
        let row = try Row.fetchOne(db, SQLRequest(literal: """
            SELECT \(columns.joined(separator: ", ")) FROM \(identifier: storage.tableName) WHERE Z_PK = \(primaryKey)
            """))
        return (0..<columns.count).map { row?[$0] ?? .null }
    }
}
