import Foundation
internal import GRDB

/// What a `TextSearchIndex` indexes: the text attributes of one entity (its sub-entities
/// included), ordered by one attribute so a page of matches comes out in that order without
/// sorting, folded by one function (which must fold exactly as the predicate the index stands in
/// for, e.g. `SearchFolding.caseAndAccentFolded` for `CONTAINS[cd]`).
public struct TextIndexConfiguration: Sendable {
    /// The indexed entity (its sub-entities included).
    public let entityName: String
    /// The attributes whose text is searched; a match in any of them is a match.
    public let attributes: [String]
    /// The attribute the matches come out by, newest (largest) first, then by primary key.
    public let orderAttribute: String
    /// Folds text for indexing and for patterns alike, so both compare the same way.
    public let fold: @Sendable (String) -> String
    /// Trigram search needs at least three folded characters.
    static let shortestTrigramPattern = 3

    /// An index of `attributes` of `entityName`, ordered by `orderAttribute`, folded by `fold`.
    public init(entityName: String, attributes: [String], orderAttribute: String,
                fold: @escaping @Sendable (String) -> String = SearchFolding.caseAndAccentFolded) {
        self.entityName = entityName
        self.attributes = attributes
        self.orderAttribute = orderAttribute
        self.fold = fold
    }

    /// Whether the index looks this pattern up by its trigrams (three folded characters or
    /// more); shorter ones are searched for in the folded text it keeps.
    func looksUpByTrigrams(_ pattern: String) -> Bool {
        fold(pattern).unicodeScalars.count >= Self.shortestTrigramPattern
    }

    /// Whether a store of this model version has what the index reads: the entity, its indexed
    /// attributes and its order attribute.
    func applies(to model: ManagedObjectModel) -> Bool {
        guard let schema = try? StoreSchema(model: model) else { return false }
        return (try? IndexedTable(schema: schema, configuration: self)) != nil
    }

    /// The indexed attributes as the column names of the side file's `staged` table.
    var sideColumns: [SQL] { attributes.map { "\(identifier: $0)" } }

    /// The side file's text tables, one per indexed attribute, in `attributes`' order.
    var foldedTables: [SQL] { attributes.indices.map { SQL(sql: "folded_\($0)") } }
}

/// Where the store keeps the indexed entity: its table, the rows of the entity in it, and the
/// columns the index copies.
struct IndexedTable {
    let name: SQL
    /// `Z_ENT IN (…)` when the table holds other entities too; nil when every row is indexed.
    let kindFilter: SQL?
    /// The store's columns of the configuration's attributes, in its order.
    let columns: [SQL]
    let orderColumn: SQL

    init(schema: StoreSchema, configuration: TextIndexConfiguration) throws {
        let entityName = configuration.entityName
        guard let entity = schema.entity(named: entityName) else {
            throw ContextError.refused(.indexedEntityMissing(entityName))
        }
        func column(_ attribute: String) throws -> SQL {
            guard let column = entity.attributeColumns[attribute] else {
                throw ContextError.refused(.indexedAttributeMissing(entity: entityName, attribute: attribute))
            }
            return "\(identifier: column.name)"
        }
        name = "\(identifier: entity.tableName)"
        columns = try configuration.attributes.map(column)
        orderColumn = try column(configuration.orderAttribute)
        let sharing = schema.entities.filter { $0.tableName == entity.tableName }.count
        kindFilter = sharing == entity.kindNumbers.count ? nil : "Z_ENT IN \(entity.kindNumbers)"
    }

    /// ` WHERE <condition>` restricted to the indexed entity's rows.
    func whereClause(_ condition: SQL? = nil) -> SQL {
        let conditions = [kindFilter, condition].compactMap { $0 }
        return conditions.isEmpty ? "" : " WHERE \(conditions.joined(separator: " AND "))"
    }
}
