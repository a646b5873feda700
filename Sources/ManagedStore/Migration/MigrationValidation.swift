import GRDB

/// Stage 3 of a migration: validates the whole destination store with SQL (required values,
/// value types, relationship counts), since objects were saved without validation while copying.
struct MigrationValidation {
    let store: PersistentStore

    func run() throws {
        var problems: [ValidationError.Problem] = []
        try store.database.read { db in
            for entity in store.schema.entities {
                problems += try check(entity, in: db)
            }
        }
        guard problems.isEmpty else {
            throw MigrationError("the migrated store does not validate: " + ValidationError(problems: problems).description)
        }
    }

    private func check(_ entity: EntityStorage, in db: Database) throws -> [ValidationError.Problem] {
        let model = store.model
        let rows = "FROM \(entity.tableName) WHERE Z_ENT = \(entity.number)"
        guard try (Int.fetchOne(db, sql: "SELECT COUNT(*) \(rows)") ?? 0) > 0 else { return [] }
        var problems: [ValidationError.Problem] = []
        func count(_ condition: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) \(rows) AND \(condition)") ?? 0
        }
        func problem(_ property: String, _ reason: String) {
            problems.append(ValidationError.Problem(entity: entity.name, property: property, reason: reason))
        }
        for attribute in model.allAttributes(of: entity.name) where !attribute.isTransient {
            guard let column = entity.attributeColumns[attribute.name] else { continue }
            if !attribute.isOptional, case let missing = try count("\(column.name) IS NULL"), missing > 0 {
                problem(attribute.name, "\(objectCount(missing)) without a value, but a value is required")
            }
            let allowed: String = switch column.type {
            case .integer: "'integer'"
            case .float, .decimal, .timestamp: "'real', 'integer'"
            case .varchar: "'text'"
            case .blob: "'blob'"
            }
            if case let wrong = try count("\(column.name) IS NOT NULL AND typeof(\(column.name)) NOT IN (\(allowed))"), wrong > 0 {
                problem(attribute.name, "\(objectCount(wrong)) with a value that is not a \(attribute.type.rawValue)")
            }
        }
        for relationship in model.allRelationships(of: entity.name) where !relationship.isTransient {
            if let columns = entity.toOneColumns[relationship.name] {
                if !relationship.isOptional, case let missing = try count("\(columns.key.name) IS NULL"), missing > 0 {
                    problem(relationship.name, "\(objectCount(missing)) without a related object, but one is required")
                }
                continue
            }
            let membersPerOwner: String
            switch entity.toManyStorage[relationship.name] {
            case .inverseForeignKey(let table, let column, _, _)?:
                membersPerOwner = "(SELECT COUNT(*) FROM \(table) x WHERE x.\(column) = o.Z_PK)"
            case .joinTable(let table, let ownerColumn, _, _, _)?:
                membersPerOwner = "(SELECT COUNT(*) FROM \(table) j WHERE j.\(ownerColumn) = o.Z_PK)"
            case nil:
                continue
            }
            let minimum = relationship.isOptional ? relationship.minCount : max(1, relationship.minCount)
            var conditions: [String] = []
            if minimum > 0 { conditions.append("(\(membersPerOwner) BETWEEN 1 AND \(minimum - 1)\(relationship.isOptional ? "" : " OR \(membersPerOwner) = 0"))") }
            if relationship.maxCount > 0 { conditions.append("\(membersPerOwner) > \(relationship.maxCount)") }
            guard !conditions.isEmpty else { continue }
            let wrong = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(entity.tableName) o WHERE o.Z_ENT = \(entity.number) AND (\(conditions.joined(separator: " OR ")))") ?? 0
            if wrong > 0 {
                problem(relationship.name, "\(objectCount(wrong)) with a number of related objects outside \(minimum)...\(relationship.maxCount == 0 ? "" : String(relationship.maxCount))")
            }
        }
        return problems
    }
}
