internal import GRDB

/// A to-one foreign key of a destination table, computed when the table's rows are inserted, so
/// no row (and no blob in it) is written twice. Its values are materialised once in a temporary
/// table `row, fk, fent, position` keyed by destination row, which the `INSERT … SELECT` joins.
struct InsertLink {
    /// The temporary table, `temp.MS_LINK_<mapping>_<number>`.
    let table: SQL
    /// `l<number>`.
    let alias: SQL
    let target: ToOneColumns

    var columns: [String] { [target.key.name] + [target.entity, target.orderKey].compactMap { $0?.name } }

    var values: [SQL] {
        ["\(alias).fk"] + (target.entity == nil ? [] : ["\(alias).fent"]) + (target.orderKey == nil ? [] : ["\(alias).position"])
    }

    /// Joins the link's values to the row whose destination key is `key`.
    func join(on key: SQL) -> SQL { "LEFT JOIN \(table) \(alias) ON \(alias).row = \(key)" }
}

extension SetBasedMigration {
    /// The links of each entity mapping's rows, by mapping index, once every mapping is numbered.
    /// A to-one column takes its value from the relationship mappings that stage 2 would have
    /// applied to it: the relationship's own (target) and its inverse's on the other side
    /// (owner); where both give one, the later mapping's wins, as it would have last written it.
    /// - Returns: nil when a relationship mapping has a form SQL cannot link (nothing is made).
    func makeInsertLinks() throws -> [[InsertLink]]? {
        let mappings = mappingModel.entityMappings
        var plans: [[(columns: ToOneColumns, candidates: [SQL])]] = []
        for (index, mapping) in mappings.enumerated() {
            guard let name = mapping.destinationEntityName, let entity = destination.entity(named: name) else {
                plans.append([])
                continue
            }
            var plan: [(columns: ToOneColumns, candidates: [SQL])] = []
            for (relationshipName, columns) in entity.toOneColumns.sorted(by: { $0.key < $1.key }) {
                guard let relationship = destination.model.allRelationships(of: name).first(where: { $0.name == relationshipName }),
                      let candidates = candidates(for: relationship, in: index) else { return nil }
                if !candidates.isEmpty { plan.append((columns, candidates)) }
            }
            plans.append(plan)
        }
        return try database.write { db in
            try plans.enumerated().map { index, plan in
                try plan.enumerated().map { number, link in
                    let name = "MS_LINK_\(index)_\(number)"
                    let table: SQL = "temp.\(sql: name)"
                    try db.execute(literal: "CREATE TEMP TABLE \(sql: name) (row INTEGER PRIMARY KEY, fk INTEGER, fent INTEGER, position INTEGER)")
                    // The first candidate gives the key; a position (of an ordered inverse) comes
                    // from whichever gives one, as stage 2 left the order column alone otherwise.
                    for candidate in link.candidates {
                        try db.execute(literal: """
                            INSERT INTO \(table) (row, fk, fent, position) SELECT * FROM (\(candidate)) WHERE true
                            ON CONFLICT (row) DO UPDATE SET position = coalesce(position, excluded.position)
                            """)
                    }
                    return InsertLink(table: table, alias: "\(sql: "l\(number)")", target: link.columns)
                }
            }
        }
    }

    /// `SELECT row, fk, fent, position` for each relationship mapping that sets the to-one's
    /// column of mapping `index`'s rows, the one stage 2 would apply last first; nil when one of
    /// them has a form SQL cannot link.
    private func candidates(for relationship: RelationshipDescription, in index: Int) -> [SQL]? {
        let mappings = mappingModel.entityMappings
        var ranked: [(rank: [Int], sql: SQL)] = []
        if let position = mappings[index].relationshipMappings.firstIndex(where: { $0.name == relationship.name && $0.valueExpression != nil }) {
            guard let pairs = pairs(for: mappings[index].relationshipMappings[position], of: index) else { return nil }
            ranked.append(([index, position], "SELECT owner, MIN(target), tent, NULL FROM (\(pairs)) GROUP BY owner"))
        }
        if let inverse = destination.model.inverse(of: relationship),
           let inverseTable = destination.entity(named: relationship.destinationEntityName)?.tableName {
            for (other, mapping) in mappings.enumerated() {
                // The inverse itself, on rows of its table: another hierarchy's look-alike has other keys.
                guard let name = mapping.destinationEntityName, destination.entity(named: name)?.tableName == inverseTable,
                      destination.model.allRelationships(of: name).contains(where: { $0.name == inverse.name && $0.inverseName == relationship.name }),
                      let position = mapping.relationshipMappings.firstIndex(where: { $0.name == inverse.name && $0.valueExpression != nil })
                else { continue }
                guard let pairs = pairs(for: mapping.relationshipMappings[position], of: other) else { return nil }
                let order: SQL = inverse.isToMany ? "ROW_NUMBER() OVER (PARTITION BY owner ORDER BY position, target)" : "NULL"
                ranked.append(([other, position], "SELECT target, owner, oent, \(order) FROM (\(pairs))"))
            }
        }
        return ranked.sorted { $0.rank.lexicographicallyPrecedes($1.rank) }.reversed().map(\.sql)
    }
}
