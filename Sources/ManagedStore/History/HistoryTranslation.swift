import Foundation
internal import GRDB

/// Rewrites the history a migration carries over so that it reads right under the new version:
/// `ZENTITY` holds entity numbers and `ZCOLUMNS` and the tombstone columns are laid out by the
/// entity's properties, all of which a new version may change. Each change's entity becomes the
/// entity its objects became (`entities`: source name -> destination name; none: `ZENTITY` NULL,
/// the entity is gone), its changed properties are encoded again by name (renamed ones followed,
/// gone ones dropped), and its tombstone values move to their new columns. One `UPDATE` over
/// `ACHANGE` with SQL functions, in the migration's transaction. The objects' keys are kept: the
/// engine's migrations keep them where one mapping alone makes an entity's objects.
struct HistoryTranslation {
    let source: StoreSchema
    let destination: StoreSchema
    /// Source entity -> the destination entity its objects became.
    let entities: [String: String]
    /// Source entity -> (source property -> destination property), for renamed properties.
    let renamedProperties: [String: [String: String]]

    /// For a copying migration: each source entity becomes the destination of the mapping that
    /// reads it (the one keeping its name first), else the destination entity of its name;
    /// attributes a mapping copies from another name (`$source.x`) are renames.
    init(source: StoreSchema, destination: StoreSchema, mapping: MappingModel) {
        self.source = source
        self.destination = destination
        var entities: [String: String] = [:]
        var renames: [String: [String: String]] = [:]
        for entityMapping in mapping.entityMappings {
            guard let from = entityMapping.sourceEntityName, let to = entityMapping.destinationEntityName else { continue }
            if entities[from] == nil || to == from { entities[from] = to }
            for attribute in entityMapping.attributeMappings {
                if case .keyPath(.variable("source")?, let path)? = attribute.valueExpression, path.count == 1, path[0] != attribute.name {
                    renames[from, default: [:]][path[0]] = attribute.name
                }
            }
        }
        for entity in source.entities where entities[entity.name] == nil && destination.entity(named: entity.name) != nil {
            entities[entity.name] = entity.name
        }
        self.entities = entities
        renamedProperties = renames
    }

    /// For an in-place step: entities and properties as inference matched them.
    init(source: StoreSchema, destination: StoreSchema, inferred: InferredMapping) {
        self.source = source
        self.destination = destination
        entities = Dictionary(inferred.entityMatches.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        var renames: [String: [String: String]] = [:]
        for (destinationEntity, properties) in inferred.propertyMatches {
            guard let sourceEntity = inferred.entityMatches[destinationEntity] else { continue }
            for (to, from) in properties where to != from { renames[sourceEntity, default: [:]][from] = to }
        }
        renamedProperties = renames
    }

    func run(in db: Database) throws {
        guard try HistoryTables.exist(in: db) else { return }
        var numbers: [Int64: Int64?] = [:]
        var columns: [Int64: (ChangedProperties, ChangedProperties?, [String: String])] = [:]
        var tombstones: [Int64: (from: [String], to: [String])] = [:]
        var unchanged = true
        for entity in source.entities {
            let target = entities[entity.name].flatMap { destination.entity(named: $0) }
            let old = Int64(entity.number)
            numbers[old] = target.map { Int64($0.number) }
            let before = ChangedProperties(entity: entity.name, model: source.model)
            let after = target.map { ChangedProperties(entity: $0.name, model: destination.model) }
            let renames = renamedProperties[entity.name] ?? [:]
            columns[old] = (before, after, renames)
            let preserved = (Tombstones(entity: entity.name, model: source.model).attributes.map(\.name),
                             target.map { Tombstones(entity: $0.name, model: destination.model).attributes.map(\.name) } ?? [])
            tombstones[old] = preserved
            unchanged = unchanged && target?.number == entity.number && after?.names == before.names && renames.isEmpty
                && preserved.0 == preserved.1
        }
        guard !unchanged else { return }
        let (numberOf, layoutOf, tombstonesOf) = (numbers, columns, tombstones)
        let width = max(tombstones.values.map { max($0.from.count, $0.to.count) }.max() ?? 0, 0)
        try Tombstones.ensureColumns(width, in: db)
        let entity = DatabaseFunction("MS_HISTORY_ENTITY", argumentCount: 1, pure: true) { values in
            guard let old = Int64.fromDatabaseValue(values[0]) else { return nil }
            // A number the source version does not have is left as it is.
            guard let new = numberOf[old] else { return old }
            return new
        }
        let changed = DatabaseFunction("MS_HISTORY_COLUMNS", argumentCount: 2, pure: true) { values in
            guard let old = Int64.fromDatabaseValue(values[0]), let bits = Data.fromDatabaseValue(values[1]) else { return nil }
            guard let (before, after, renames) = layoutOf[old] else { return bits }
            guard let after else { return nil }
            return after.encode(Set(before.decode(bits).map { renames[$0] ?? $0 }))
        }
        // MS_HISTORY_TOMBSTONE(entity, i, ZTOMBSTONE0, …): the value for new column i.
        let tombstone = DatabaseFunction("MS_HISTORY_TOMBSTONE", argumentCount: 2 + width, pure: true) { values in
            guard let old = Int64.fromDatabaseValue(values[0]), let index = Int.fromDatabaseValue(values[1]) else { return nil }
            guard let layout = tombstonesOf[old] else { return values[2 + index] }
            guard index < layout.to.count else { return nil }
            let renames = layoutOf[old]?.2 ?? [:]
            guard let from = layout.from.firstIndex(where: { (renames[$0] ?? $0) == layout.to[index] }) else { return nil }
            return values[2 + from]
        }
        [entity, changed, tombstone].forEach(db.add(function:))
        defer { [entity, changed, tombstone].forEach(db.remove(function:)) }
        let current = (0..<width).map { index -> SQL in "\(identifier: Tombstones.column(index))" }
        let values = current.map { column -> SQL in ", \(column)" }.joined()
        let assignments: [SQL] = ["ZENTITY = MS_HISTORY_ENTITY(ZENTITY)", "ZCOLUMNS = MS_HISTORY_COLUMNS(ZENTITY, ZCOLUMNS)"]
            + current.enumerated().map { index, column in "\(column) = MS_HISTORY_TOMBSTONE(ZENTITY, \(index)\(values))" }
        try db.execute(literal: "UPDATE ACHANGE SET \(assignments.joined(separator: ", "))")
    }
}
