internal import GRDB

/// Checks, before a migration reads anything, that every row of the source store's entity
/// tables names an entity stored in its table. The migration selects rows by `Z_ENT`, so a row
/// with a NULL or foreign `Z_ENT` would otherwise be skipped without a word: a note or an
/// attachment lost. One scan per table, in SQL.
struct SourceRowCheck {
    let schema: StoreSchema
    /// The schema name the source store is attached as, on `database`.
    let attachedAs: String
    let path: String

    /// Throws the `StoreError` of the first row whose entity is not one of its table's.
    func run(_ db: Database) throws {
        let numbersByTable = Dictionary(grouping: schema.entities, by: \.tableName).mapValues { $0.map(\.number) }
        for (table, numbers) in numbersByTable.sorted(by: { $0.key < $1.key }) {
            guard let row = try Row.fetchOne(db, SQLRequest(literal: """
                SELECT Z_PK, Z_ENT FROM \(sql: attachedAs).\(identifier: table) \
                WHERE Z_ENT IS NULL OR Z_ENT NOT IN \(numbers) ORDER BY Z_PK LIMIT 1
                """)) else { continue }
            _ = try RowReader(row: row, table: table, path: path).entity(in: schema)
        }
    }
}

/// Checks, before a migration writes anything, that no object of the source store would be
/// dropped unseen: an entity the destination version still has, with objects in the store, that
/// no entity mapping reads (a mapping reads its entity exactly, not its subentities). Core Data
/// drops such objects without a word; this engine refuses, naming them, so a mapping model that
/// forgot an entity never loses data.
struct UnreadSourceObjects {
    let source: StoreSchema
    let destination: ManagedObjectModel
    let mapping: MappingModel
    let attachedAs: String

    func run(_ db: Database) throws {
        let read = Set(mapping.entityMappings.compactMap(\.sourceEntityName))
        for entity in source.entities where !read.contains(entity.name) && destination.entity(named: entity.name) != nil {
            let count = try Int.fetchOne(db, SQLRequest(literal: """
                SELECT COUNT(*) FROM \(sql: attachedAs).\(identifier: entity.tableName) WHERE Z_ENT = \(entity.number)
                """)) ?? 0
            guard count == 0 else {
                throw MigrationError.mapping(.unmappedObjects(mappingModel: mapping.name, entity: entity.name, count: count))
            }
        }
    }
}
