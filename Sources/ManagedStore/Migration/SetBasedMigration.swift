internal import GRDB

/// The SQL fast path of `MigrationManager`: whole entity mappings as `INSERT … SELECT` from the
/// attached source (`src`) into the destination, and relationships linked with `UPDATE … FROM`
/// over the association tables.
struct SetBasedMigration {
    let source: StoreSchema
    let destination: StoreSchema
    let mappingModel: MappingModel
    let plan: CopyPlan
    /// The destination's connection, the source attached as `src`, with the association tables.
    let database: DatabaseQueue

    private var associations: AssociationTables { AssociationTables(plan: plan, database: database) }

    /// Numbers the selected source rows of a mapping into its association table, in batches:
    /// destination keys continue the destination hierarchy's `Z_MAX`. No row is written yet, so
    /// every mapping can be numbered before any row is inserted and rows can name their targets.
    func numberInstances(_ index: Int, selection: SourceSelection, destination target: EntityStorage) throws {
        let association = AssociationTables.table(index)
        let rootNumber = destination.storage(ofModelEntity: target.rootName).number
        if plan.keepsSourceKeys.contains(index) {
            // The association is a view giving each row its source key: only the counter moves.
            try database.write { db in
                try db.execute(literal: """
                    UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, coalesce((SELECT MAX(dpk) FROM \(association)), 0)) WHERE Z_ENT = \(rootNumber)
                    """)
            }
            return
        }
        var last: Int64 = 0
        while true {
            let count = try database.write { db -> Int in
                let base = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [rootNumber]) ?? 0
                try db.execute(literal: """
                    INSERT INTO \(association) (spk, sent, dpk, dent)
                    SELECT s.Z_PK, s.Z_ENT, \(base) + ROW_NUMBER() OVER (ORDER BY s.Z_PK), \(target.number) FROM \(selection.from) AND s.Z_PK > \(last)
                    ORDER BY s.Z_PK LIMIT \(sql: String(Self.batchSize))
                    """)
                let inserted = db.changesCount
                guard inserted > 0 else { return 0 }
                try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [base + Int64(inserted), rootNumber])
                last = try Int64.fetchOne(db, SQLRequest(literal: "SELECT MAX(spk) FROM \(association) WHERE dpk > \(base)")) ?? last
                return inserted
            }
            guard count > 0 else { return }
        }
    }

    /// Inserts the destination rows of a numbered mapping, in batches of keys, each row whole:
    /// its attributes and the foreign keys `links` computed for its table. Each batch is a range
    /// of destination keys read through the association's index (or, for rows keeping their
    /// source keys, straight from the source table), in key order: no sort of rows (with their
    /// images) in a temporary B-tree.
    func insertInstances(_ index: Int, selection: SourceSelection, statement: InstanceStatement,
                         links: [InsertLink], progress: (Int) throws -> Void) throws {
        let association = AssociationTables.table(index)
        let keepsKeys = plan.keepsSourceKeys.contains(index)
        let (key, entity): (SQL, SQL) = keepsKeys ? ("s.Z_PK", "\(statement.destination.number)") : ("a.dpk", "a.dent")
        let insertColumns: SQL = (["Z_PK", "Z_ENT", "Z_OPT"] + statement.columns + links.flatMap(\.columns))
            .map { "\(identifier: $0)" }.joined(separator: ", ")
        let selectValues: SQL = ([key, entity, "1"] + statement.values + links.flatMap(\.values)).joined(separator: ", ")
        let joins = links.map { $0.join(on: key) }.joined(separator: " ")
        let rows: SQL = keepsKeys
            ? "src.\(identifier: selection.table) s \(joins) WHERE \(selection.conditions) AND"
            : "\(association) a JOIN src.\(identifier: statement.sourceTable) s ON s.Z_PK = a.spk \(joins) WHERE"
        try associations.forEachKeyRange(of: index, size: Self.batchSize) { from, to in
            let count = try database.write { db -> Int in
                try db.execute(literal: """
                    INSERT INTO main.\(identifier: statement.destination.tableName) (\(insertColumns))
                    SELECT \(selectValues) FROM \(rows) \(key) >= \(from) AND \(key) <= \(to) ORDER BY \(key)
                    """)
                return db.changesCount
            }
            try progress(count)
        }
    }

    // MARK: Relationships

    /// Links one relationship of a mapping's destination objects with SQL when its expression is
    /// `FUNCTION($manager, "destinationInstances…", "M", K)` with K `$source` or `$source.<relationship>`.
    /// - Returns: false when the expression has another form (it is then evaluated per object).
    func linkRelationship(_ propertyMapping: PropertyMapping, of index: Int) throws -> Bool {
        let mapping = mappingModel.entityMappings[index]
        guard let destinationName = mapping.destinationEntityName, let owner = destination.entity(named: destinationName),
              let relationship = destination.model.allRelationships(of: destinationName).first(where: { $0.name == propertyMapping.name }),
              let pairs = pairs(for: propertyMapping, of: index)
        else { return false }
        // Owners a range of keys at a time, each range in its own transaction: SQLite's temporary
        // structures for the joins stay small however many objects there are.
        let association = AssociationTables.table(index)
        try associations.forEachKeyRange(of: index, size: Self.relationshipChunk) { from, to in
            try database.write { db in
                try apply("SELECT * FROM (\(pairs)) WHERE owner >= \(from) AND owner <= \(to)", to: relationship, owner: owner,
                          ownerKeys: "SELECT dpk FROM \(association) WHERE dpk >= \(from) AND dpk <= \(to)", in: db)
            }
        }
        return true
    }

    /// `SELECT owner, oent, target, tent, position` for a relationship mapping of the form
    /// `linkRelationship` takes; nil for another form.
    func pairs(for propertyMapping: PropertyMapping, of index: Int) -> SQL? {
        let mapping = mappingModel.entityMappings[index]
        guard let expression = propertyMapping.valueExpression,
              case .function(.variable("manager"), let selector, let arguments) = expression,
              arguments.count == 2, case .constant(.string(let name)?) = arguments[0],
              let targets = associations(selector: selector, name: name),
              let sourceName = mapping.sourceEntityName, let sourceEntity = source.entity(named: sourceName)
        else { return nil }
        return pairsSQL(arguments[1], owners: index, targets: targets, sourceEntity: sourceEntity)
    }

    /// Rows per SQL batch.
    static let batchSize = 2_000

    /// Owners linked per transaction.
    static let relationshipChunk = 20_000

    /// The association table(s) the function looks destination objects up in: one entity
    /// mapping's, or for the relationship form, all of them.
    private func associations(selector: String, name: String) -> SQL? {
        switch selector {
        case MigrationSelectors.destinationInstances:
            return mappingModel.entityMappings.firstIndex { $0.name == name }.map(AssociationTables.table)
        case MigrationSelectors.destinationInstancesForRelationship:
            let all = mappingModel.entityMappings.indices.map { index -> SQL in
                "SELECT spk, sent, dpk, dent FROM \(AssociationTables.table(index))"
            }
            return "(\(all.joined(separator: " UNION ALL ")))"
        default:
            return nil
        }
    }

    /// `SELECT owner, oent, target, tent, position`: destination owners and the destination objects
    /// their source's key path leads to, through the given associations; `position` keeps the
    /// source's order for ordered relationships.
    private func pairsSQL(_ keyPath: ValueExpression, owners: Int, targets m: SQL, sourceEntity: EntityStorage) -> SQL? {
        let a = AssociationTables.table(owners)
        let select: SQL = "SELECT a.dpk AS owner, a.dent AS oent, m.dpk AS target, m.dent AS tent"
        if keyPath == .variable("source") {
            return "\(select), 0 AS position FROM \(a) a JOIN \(m) m ON m.spk = a.spk AND m.sent = a.sent"
        }
        guard case .keyPath(.variable("source")?, let components) = keyPath, components.count == 1,
              let relationship = source.model.allRelationships(of: sourceEntity.name).first(where: { $0.name == components[0] }),
              let targetEntity = source.entity(named: relationship.destinationEntityName) else { return nil }
        let kinds = targetEntity.kindNumbers
        if let columns = sourceEntity.toOneColumns[relationship.name] {
            let entityMatch: SQL = columns.entity.map { "m.sent = s.\(identifier: $0.name)" } ?? "m.sent IN \(kinds)"
            return """
                \(select), 0 AS position FROM \(a) a JOIN src.\(identifier: sourceEntity.tableName) s ON s.Z_PK = a.spk \
                JOIN \(m) m ON m.spk = s.\(identifier: columns.key.name) AND \(entityMatch)
                """
        }
        switch sourceEntity.toManyStorage[relationship.name] {
        case .inverseForeignKey(let table, let column, _, let order)?:
            let position: SQL = order.map { "x.\(identifier: $0)" } ?? "x.Z_PK"
            return """
                \(select), \(position) AS position FROM \(a) a \
                JOIN src.\(identifier: table) x ON x.\(identifier: column) = a.spk AND x.Z_ENT IN \(kinds) \
                JOIN \(m) m ON m.spk = x.Z_PK AND m.sent = x.Z_ENT
                """
        case .joinTable(let table, let ownerColumn, let memberColumn, _, let order)?:
            let position: SQL = order.map { "j.\(identifier: $0)" } ?? "x.Z_PK"
            return """
                \(select), \(position) AS position FROM \(a) a \
                JOIN src.\(identifier: table) j ON j.\(identifier: ownerColumn) = a.spk \
                JOIN src.\(identifier: targetEntity.tableName) x ON x.Z_PK = j.\(identifier: memberColumn) \
                JOIN \(m) m ON m.spk = x.Z_PK AND m.sent = x.Z_ENT
                """
        case nil:
            return nil
        }
    }

    /// Sets the relationship of every owner to its targets (nil or empty when it has none), and
    /// the inverse side where it has storage of its own.
    func apply(_ pairs: SQL, to relationship: RelationshipDescription, owner: EntityStorage, ownerKeys: SQL, in db: Database) throws {
        if let columns = owner.toOneColumns[relationship.name] {
            let table: SQL = "main.\(identifier: owner.tableName)"
            let key: SQL = "\(identifier: columns.key.name)", entity: SQL? = columns.entity.map { "\(identifier: $0.name)" }
            var cleared: [SQL] = ["\(key) = NULL"], assignments: [SQL] = ["\(key) = p.target"]
            if let entity {
                cleared.append("\(entity) = NULL")
                assignments.append("\(entity) = p.tent")
            }
            try db.execute(literal: "UPDATE \(table) SET \(cleared.joined(separator: ", ")) WHERE Z_PK IN (\(ownerKeys))")
            try db.execute(literal: """
                UPDATE \(table) SET \(assignments.joined(separator: ", ")) \
                FROM (SELECT owner, MIN(target) AS target, tent FROM (\(pairs)) GROUP BY owner) p WHERE \(table).Z_PK = p.owner
                """)
            if let inverse = destination.model.inverse(of: relationship), !inverse.isToMany,
               let targetEntity = destination.entity(named: relationship.destinationEntityName),
               let inverseColumns = targetEntity.toOneColumns[inverse.name] {
                let targetTable: SQL = "main.\(identifier: targetEntity.tableName)"
                try db.execute(literal: """
                    UPDATE \(targetTable) SET \(identifier: inverseColumns.key.name) = p.owner FROM (\(pairs)) p WHERE \(targetTable).Z_PK = p.target
                    """)
            }
            return
        }
        switch owner.toManyStorage[relationship.name] {
        case .inverseForeignKey(let table, let foreignKey, _, let order)?:
            let memberTable: SQL = "main.\(identifier: table)"
            let column: SQL = "\(identifier: foreignKey)"
            try db.execute(literal: """
                UPDATE \(memberTable) SET \(column) = NULL WHERE \(column) IN (\(ownerKeys)) AND Z_PK NOT IN (SELECT target FROM (\(pairs)))
                """)
            try db.execute(literal: "UPDATE \(memberTable) SET \(column) = p.owner FROM (\(pairs)) p WHERE \(memberTable).Z_PK = p.target")
            if let order {
                try db.execute(literal: """
                    UPDATE \(memberTable) SET \(identifier: order) = r.position \
                    FROM (SELECT target, ROW_NUMBER() OVER (PARTITION BY owner ORDER BY position, target) AS position FROM (\(pairs))) r \
                    WHERE \(memberTable).Z_PK = r.target
                    """)
            }
        case .joinTable(let table, let owners, let members, _, let order)?:
            // Rows the inverse side wrote already stay, so their positions are not lost when
            // both sides of a many-to-many are mapped.
            let joinTable: SQL = "main.\(identifier: table)"
            let ownerColumn: SQL = "\(identifier: owners)", memberColumn: SQL = "\(identifier: members)"
            try db.execute(literal: """
                DELETE FROM \(joinTable) WHERE \(ownerColumn) IN (\(ownerKeys)) \
                AND (\(ownerColumn), \(memberColumn)) NOT IN (SELECT owner, target FROM (\(pairs)))
                """)
            try db.execute(literal: "INSERT OR IGNORE INTO \(joinTable) (\(ownerColumn), \(memberColumn)) SELECT owner, target FROM (\(pairs))")
            if let order {
                try db.execute(literal: """
                    UPDATE \(joinTable) SET \(identifier: order) = r.position \
                    FROM (SELECT owner, target, ROW_NUMBER() OVER (PARTITION BY owner ORDER BY position, target) AS position FROM (\(pairs))) r \
                    WHERE \(joinTable).\(ownerColumn) = r.owner AND \(joinTable).\(memberColumn) = r.target
                    """)
            }
        case nil:
            return
        }
    }
}
