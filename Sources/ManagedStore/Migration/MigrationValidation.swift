internal import GRDB

/// Stage 3 of a migration: validates the destination store with SQL, since objects were saved
/// without validation while copying. Each table is read once: one `SELECT` counts, for every
/// entity stored in it, the rows failing each check (a required value missing, a value of
/// another type, a required to-one missing, a foreign key naming no row of its entity, a to-many
/// count out of bounds).
struct MigrationValidation {
    let store: PersistentStore
    /// Attributes, by entity, that meet their checks as the migration made them (copied from source
    /// attributes meeting them, a valid constant, a function's promised value): only what the
    /// mapping can break is checked.
    var validAttributes: [String: Set<String>] = [:]
    /// The only entities that can have objects, when the migration knows (`CopyPlan.entitiesMade`):
    /// the others' checks have no rows to find.
    var entitiesMade: Set<String>?

    /// Rows of one entity failing one condition (on the table's row `o`).
    private struct Check {
        let entity: EntityStorage
        let property: String
        let condition: SQL
        let reason: (Int) -> String
    }

    func run() throws {
        let entities = store.schema.entities.filter { entitiesMade?.contains($0.name) ?? true }
        let checksByTable = Dictionary(grouping: entities.flatMap(checks), by: \.entity.tableName)
        var failures: [(check: Check, count: Int)] = []
        try store.database.read { db in
            for (table, checks) in checksByTable.sorted(by: { $0.key < $1.key }) {
                // CASE, not AND: a check's subqueries run only on its entity's rows.
                let counts = checks.map { check -> SQL in "COALESCE(SUM(CASE WHEN o.Z_ENT = \(check.entity.number) THEN (\(check.condition)) END), 0)" }
                guard let row = try Row.fetchOne(db, SQLRequest(literal: "SELECT \(counts.joined(separator: ", ")) FROM \(identifier: table) o")) else { continue }
                for (index, check) in checks.enumerated() {
                    let count: Int = row[index]
                    if count > 0 { failures.append((check, count)) }
                }
            }
        }
        guard !failures.isEmpty else { return }
        // In the schema's order of entities, each entity's checks in the order made.
        let order = Dictionary(uniqueKeysWithValues: store.schema.entities.enumerated().map { ($1.name, $0) })
        let problems = failures.enumerated()
            .sorted { (order[$0.element.check.entity.name] ?? 0, $0.offset) < (order[$1.element.check.entity.name] ?? 0, $1.offset) }
            .map { ValidationFailure.Problem(entity: $0.element.check.entity.name, property: $0.element.check.property,
                                           reason: $0.element.check.reason($0.element.count)) }
        throw MigrationError.validation(ValidationFailure(problems: problems))
    }

    private func checks(_ entity: EntityStorage) -> [Check] {
        let model = store.model
        var checks: [Check] = []
        func check(_ property: String, _ condition: SQL, _ reason: @escaping (Int) -> String) {
            checks.append(Check(entity: entity, property: property, condition: condition, reason: reason))
        }
        let valid = validAttributes[entity.name] ?? []
        for attribute in model.allAttributes(of: entity.name) where !attribute.isTransient && !valid.contains(attribute.name) {
            guard let column = entity.attributeColumns[attribute.name] else { continue }
            let value: SQL = "o.\(identifier: column.name)"
            if !attribute.isOptional {
                check(attribute.name, "\(value) IS NULL") { "\(objectCount($0)) without a value, but a value is required" }
            }
            check(attribute.name, "\(value) IS NOT NULL AND typeof(\(value)) NOT IN \(column.type.storageClasses)") {
                "\(objectCount($0)) with a value that is not a \(attribute.type.rawValue)"
            }
        }
        for relationship in model.allRelationships(of: entity.name) where !relationship.isTransient {
            if let columns = entity.toOneColumns[relationship.name] {
                let key: SQL = "o.\(identifier: columns.key.name)"
                if !relationship.isOptional {
                    check(relationship.name, "\(key) IS NULL") { "\(objectCount($0)) without a related object, but one is required" }
                }
                if let target = store.schema.entity(named: relationship.destinationEntityName) {
                    check(relationship.name, """
                        \(key) IS NOT NULL AND NOT EXISTS \
                        (SELECT 1 FROM \(identifier: target.tableName) t WHERE t.Z_PK = \(key) AND t.Z_ENT IN \(target.kindNumbers))
                        """) {
                        "\(objectCount($0)) whose related object is missing"
                    }
                }
                continue
            }
            let membersPerOwner: SQL
            switch entity.toManyStorage[relationship.name] {
            case .inverseForeignKey(let table, let column, _, _)?:
                membersPerOwner = "(SELECT COUNT(*) FROM \(identifier: table) x WHERE x.\(identifier: column) = o.Z_PK)"
            case .joinTable(let table, let ownerColumn, _, _, _)?:
                membersPerOwner = "(SELECT COUNT(*) FROM \(identifier: table) j WHERE j.\(identifier: ownerColumn) = o.Z_PK)"
            case nil:
                continue
            }
            let minimum = relationship.isOptional ? relationship.minCount : max(1, relationship.minCount)
            var conditions: [SQL] = []
            if minimum > 0 {
                let none: SQL = relationship.isOptional ? "" : " OR \(membersPerOwner) = 0"
                conditions.append("(\(membersPerOwner) BETWEEN 1 AND \(minimum - 1)\(none))")
            }
            if relationship.maxCount > 0 { conditions.append("\(membersPerOwner) > \(relationship.maxCount)") }
            guard !conditions.isEmpty else { continue }
            check(relationship.name, conditions.joined(separator: " OR ")) {
                "\(objectCount($0)) with a number of related objects outside \(minimum)...\(relationship.maxCount == 0 ? "" : String(relationship.maxCount))"
            }
        }
        return checks
    }
}
