extension InPlaceMigrationPlanner {
    /// The first relationship whose storage changes shape: a foreign key becoming a join table or
    /// the reverse, an order column or a target-entity column appearing, a join table gaining or
    /// losing its order column. SQL that only renames and drops columns would lose or garble
    /// such links, so these migrations copy objects instead, which carries every link over.
    /// - Returns: why, or nil when every matched relationship keeps its storage.
    func relationshipStorageChange() -> String? {
        for entity in destination.entities {
            guard let sourceName = inferred.sourceEntity(for: entity.name),
                  let old = source.entity(named: sourceName) else { continue }
            let matches = inferred.propertyMatches[entity.name] ?? [:]
            for (property, columns) in entity.toOneColumns.sorted(by: { $0.key < $1.key }) {
                guard let oldProperty = matches[property] else { continue }
                guard let oldColumns = old.toOneColumns[oldProperty], Self.keeps(oldColumns, as: columns) else {
                    return "relationship \(entity.name).\(property) changes how it is stored"
                }
            }
            for (property, storage) in entity.toManyStorage.sorted(by: { $0.key < $1.key }) {
                guard let oldProperty = matches[property] else { continue }
                guard let oldStorage = old.toManyStorage[oldProperty], Self.keeps(oldStorage, as: storage) else {
                    return "relationship \(entity.name).\(property) changes how it is stored"
                }
            }
        }
        return nil
    }

    /// A to-one keeps its key column; the columns it gains (target entity, position in an
    /// ordered inverse) would start empty, so they must exist already.
    private static func keeps(_ old: ToOneColumns, as new: ToOneColumns) -> Bool {
        (new.entity == nil || old.entity != nil) && (new.orderKey == nil || old.orderKey != nil)
    }

    private static func keeps(_ old: ToManyStorage, as new: ToManyStorage) -> Bool {
        switch (old, new) {
        case (.inverseForeignKey(_, _, _, let oldOrder), .inverseForeignKey(_, _, _, let newOrder)):
            return newOrder == nil || oldOrder != nil
        case (.joinTable(_, _, _, _, let oldOrder), .joinTable(_, _, _, _, let newOrder)):
            return oldOrder == newOrder
        default:
            return false
        }
    }
}
