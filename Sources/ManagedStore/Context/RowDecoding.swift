import GRDB

/// Fills a managed object from its table row.
enum RowDecoding {
    static func fill(_ object: ManagedObject, from row: Row, storage: EntityStorage,
                     context: ManagedObjectContext) throws {
        let info = context.info(for: storage.name)
        var values: [String: AttributeValue] = [:]
        for (name, column) in storage.attributeColumns {
            guard let attribute = info.attributes[name] else { continue }
            do {
                if let value = try StoreValueCoding.attributeValue(row[column.name] as DatabaseValue, type: attribute.type) {
                    values[name] = value
                }
            } catch let error as StoreError {
                throw StoreError(path: context.store.url.path,
                                 reason: "\(storage.name).\(name) of row \(row["Z_PK"] as Int64? ?? 0): \(error.reason)")
            }
        }
        var targets: [String: ObjectID] = [:]
        for (name, columns) in storage.toOneColumns {
            guard let relationship = info.relationships[name],
                  let key: Int64 = row[columns.key.name] else { continue }
            var targetEntity = relationship.destinationEntityName
            if let entityColumn = columns.entity, let number: Int = row[entityColumn.name],
               let concrete = context.schema.entity(number: number) {
                targetEntity = concrete.name
            }
            targets[name] = ObjectID(entityName: targetEntity, primaryKey: key)
        }
        object.isFault = false
        object.values = values
        object.committedValues = values
        object.toOneTargets = targets
        object.committedToOneTargets = targets
        object.optimisticVersion = row["Z_OPT"] ?? 0
    }
}
