import Foundation

/// What a `TextSearchIndex` indexes: the text attributes of one entity (its sub-entities
/// included), ordered by one attribute so a page of matches comes out in that order without
/// sorting, folded by one function (which must fold exactly as the predicate the index stands in
/// for, e.g. `SearchFolding.caseAndAccentFolded` for `CONTAINS[cd]`).
public struct TextIndexConfiguration: Sendable {
    public let entityName: String
    /// The attributes whose text is searched; a match in any of them is a match.
    public let attributes: [String]
    /// The attribute the matches come out by, newest (largest) first, then by primary key.
    public let orderAttribute: String
    public let fold: @Sendable (String) -> String
    /// Trigram search needs at least three folded characters.
    static let shortestTrigramPattern = 3

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

    /// The indexed attributes as the side file's column names, quoted.
    var sideColumns: [String] { attributes.map(\.quotedSQLIdentifier) }
}

/// Where the store keeps the indexed entity: its table, the rows of the entity in it, and the
/// columns the index copies.
struct IndexedTable {
    let name: String
    /// `Z_ENT IN (…)` when the table holds other entities too; nil when every row is indexed.
    let kindFilter: String?
    /// The store's columns of the configuration's attributes, in its order.
    let columns: [String]
    let orderColumn: String

    init(schema: StoreSchema, configuration: TextIndexConfiguration) throws {
        let entityName = configuration.entityName
        guard let entity = schema.entity(named: entityName) else {
            throw ContextError.refused(.indexedEntityMissing(entityName))
        }
        func column(_ attribute: String) throws -> String {
            guard let column = entity.attributeColumns[attribute] else {
                throw ContextError.refused(.indexedAttributeMissing(entity: entityName, attribute: attribute))
            }
            return column.name.quotedSQLIdentifier
        }
        name = entity.tableName.quotedSQLIdentifier
        columns = try configuration.attributes.map(column)
        orderColumn = try column(configuration.orderAttribute)
        let sharing = schema.entities.filter { $0.tableName == entity.tableName }.count
        kindFilter = sharing == entity.kindNumbers.count ? nil : "Z_ENT IN (\(entity.kindNumbers.map(String.init).joined(separator: ", ")))"
    }

    /// ` WHERE <condition>` restricted to the indexed entity's rows.
    func whereClause(_ condition: String? = nil) -> String {
        let conditions = [kindFilter, condition].compactMap { $0 }
        return conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }
}
