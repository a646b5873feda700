internal import GRDB

/// A to-one foreign key of a destination table, computed when the table's rows are inserted, so
/// no row (and no blob in it) is written twice.
struct InsertLink {
    let target: ToOneColumns
    let source: Source

    /// Where the link's values come from.
    enum Source {
        /// Materialised once in a temporary table `row, fk, fent, position` keyed by destination
        /// row (`temp.MS_LINK_<mapping>_<number>`), which the `INSERT … SELECT` joins as `alias`.
        case table(SQL, alias: SQL)
        /// The source row's own foreign key, when source and target objects keep their keys:
        /// `key` is its value for the row `s` (NULL where the target was not migrated).
        case sourceRow(key: SQL)
    }

    var columns: [String] { [target.key.name] + [target.entity, target.orderKey].compactMap { $0?.name } }

    var values: [SQL] {
        switch source {
        case .table(_, let alias):
            ["\(alias).fk"] + (target.entity == nil ? [] : ["\(alias).fent"]) + (target.orderKey == nil ? [] : ["\(alias).position"])
        case .sourceRow(let key):
            [key]
        }
    }

    /// Joins the link's values to the row whose destination key is `key` (nothing to join for
    /// a key read from the row itself).
    func join(on key: SQL) -> SQL {
        switch source {
        case .table(let table, let alias): "LEFT JOIN \(table) \(alias) ON \(alias).row = \(key)"
        case .sourceRow: ""
        }
    }
}

extension SetBasedMigration {
    /// The links of each entity mapping's rows, by mapping index, once every mapping is numbered.
    /// A to-one column takes its value from the relationship mappings that stage 2 would have
    /// applied to it: the relationship's own (target) and its inverse's on the other side
    /// (owner); where both give one, the later mapping's wins, as it would have last written it.
    /// - Returns: nil when a relationship mapping has a form SQL cannot link (nothing is made).
    func makeInsertLinks() throws -> [[InsertLink]]? {
        let mappings = mappingModel.entityMappings
        var plans: [(materialised: [(columns: ToOneColumns, candidates: [SQL])], inPlace: [InsertLink])] = []
        for (index, mapping) in mappings.enumerated() {
            guard let name = mapping.destinationEntityName, let entity = destination.entity(named: name) else {
                plans.append(([], []))
                continue
            }
            var plan: [(columns: ToOneColumns, candidates: [SQL])] = []
            var inPlace: [InsertLink] = []
            for (relationshipName, columns) in entity.toOneColumns.sorted(by: { $0.key < $1.key }) {
                guard let relationship = destination.model.allRelationships(of: name).first(where: { $0.name == relationshipName })
                else { return nil }
                if let key = sourceRowKey(for: relationship, columns: columns, in: index) {
                    inPlace.append(InsertLink(target: columns, source: .sourceRow(key: key)))
                    continue
                }
                guard let candidates = candidates(for: relationship, in: index) else { return nil }
                if !candidates.isEmpty { plan.append((columns, candidates)) }
            }
            plans.append((plan, inPlace))
        }
        return try database.write { db in
            try plans.enumerated().map { index, plan in
                try plan.materialised.enumerated().map { number, link in
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
                    return InsertLink(target: link.columns, source: .table(table, alias: "\(sql: "l\(number)")"))
                } + plan.inPlace
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

extension SetBasedMigration {
    /// The value of a to-one read from the source row `s` itself, with no table of links: when
    /// mapping `index` and the mapping its expression names both keep source keys, and the
    /// source stores the relationship as a foreign key, the destination key is that same key
    /// (NULL where the target row was not migrated). The inverse's mapping, if it maps the
    /// inverse, must say the same from the other side. Nil otherwise (the links are materialised).
    fileprivate func sourceRowKey(for relationship: RelationshipDescription, columns: ToOneColumns, in index: Int) -> SQL? {
        let mappings = mappingModel.entityMappings
        guard columns.entity == nil, columns.orderKey == nil, plan.keepsSourceKeys.contains(index),
              let own = mappings[index].relationshipMappings.first(where: { $0.name == relationship.name && $0.valueExpression != nil }),
              let (targetName, path) = Self.destinationInstancesCall(own.valueExpression),
              let target = mappings.firstIndex(where: { $0.name == targetName }), plan.keepsSourceKeys.contains(target),
              let sourceName = mappings[index].sourceEntityName, let sourceEntity = source.entity(named: sourceName),
              let sourceRelationship = source.model.allRelationships(of: sourceName).first(where: { $0.name == path }),
              let sourceColumns = sourceEntity.toOneColumns[path], sourceColumns.entity == nil,
              let sourceTarget = source.entity(named: sourceRelationship.destinationEntityName)
        else { return nil }
        guard inverseAgrees(relationship, target: target, ownerMapping: index, sourceTable: sourceEntity.tableName,
                            foreignKey: sourceColumns.key.name) else { return nil }
        return """
            (SELECT m.dpk FROM \(AssociationTables.table(target)) m \
            WHERE m.spk = s.\(identifier: sourceColumns.key.name) AND m.sent IN \(sourceTarget.kindNumbers))
            """
    }

    /// Whether every mapping of the inverse of `relationship` links the same pairs: only mapping
    /// `target`, naming mapping `ownerMapping`, through the same source foreign key.
    private func inverseAgrees(_ relationship: RelationshipDescription, target: Int, ownerMapping: Int,
                               sourceTable: String, foreignKey: String) -> Bool {
        guard let inverse = destination.model.inverse(of: relationship),
              let inverseTable = destination.entity(named: relationship.destinationEntityName)?.tableName else { return true }
        let mappings = mappingModel.entityMappings
        for (other, mapping) in mappings.enumerated() {
            guard let name = mapping.destinationEntityName, destination.entity(named: name)?.tableName == inverseTable,
                  let expression = mapping.relationshipMappings.first(where: { $0.name == inverse.name && $0.valueExpression != nil })
            else { continue }
            guard other == target, let (named, path) = Self.destinationInstancesCall(expression.valueExpression),
                  named == mappings[ownerMapping].name,
                  let sourceName = mapping.sourceEntityName, let sourceEntity = source.entity(named: sourceName),
                  case .inverseForeignKey(sourceTable, foreignKey, _, nil)? = sourceEntity.toManyStorage[path]
            else { return false }
        }
        return true
    }

    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "M", $source.r)`
    /// as `(M, r)`; nil for any other expression.
    private static func destinationInstancesCall(_ expression: ValueExpression?) -> (mapping: String, relationship: String)? {
        guard case .function(.variable("manager"), MigrationSelectors.destinationInstances, let arguments)? = expression,
              arguments.count == 2, case .constant(.string(let name)?) = arguments[0],
              case .keyPath(.variable("source")?, let components) = arguments[1], components.count == 1 else { return nil }
        return (name, components[0])
    }
}
