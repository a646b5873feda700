package import GRDB

/// Fills a managed object from its table row. Every value is decoded with errors, never traps:
/// a store edited by hand can hold anything in any column.
enum RowDecoding {
    static func fill(_ object: ManagedObject, from row: Row, storage: EntityStorage,
                     context: ManagedObjectContext) throws {
        let reader = context.rowReader(row, table: storage.tableName)
        let primaryKey = try reader.primaryKey()
        let info = context.info(for: storage.name)
        var values: [String: AttributeValue] = [:]
        for (name, column) in storage.attributeColumns {
            guard let attribute = info.attributes[name] else { continue }
            if let value = try context.attributeValue(try reader.value(column.name), of: attribute, entity: storage,
                                                      column: column.name, primaryKey: primaryKey) {
                values[name] = value
            }
        }
        var targets: [String: ObjectID] = [:]
        for (name, columns) in storage.toOneColumns {
            guard let relationship = info.relationships[name],
                  let key = try reader.integer(columns.key.name) else { continue }
            var targetEntity = relationship.destinationEntityName
            if let entityColumn = columns.entity, let number = try reader.integer(entityColumn.name),
               let concrete = Int(exactly: number).flatMap(context.schema.entity(number:)) {
                targetEntity = concrete.name
            }
            targets[name] = ObjectID(entityName: targetEntity, primaryKey: key)
        }
        let optimisticVersion = try reader.integer("Z_OPT") ?? 0
        object.isFault = false
        object.values = values
        object.committedValues = values
        object.toOneTargets = targets
        object.committedToOneTargets = targets
        object.optimisticVersion = optimisticVersion
    }
}

extension ManagedObjectContext {
    /// A column of a row as the attribute's value: an externally stored value read from its file,
    /// then decoded as the attribute's type; a value the type cannot hold is an error naming the
    /// entity, attribute and row.
    func attributeValue(_ column: DatabaseValue, of attribute: AttributeDescription, entity: EntityStorage,
                        column name: String, primaryKey: Int64) throws -> AttributeValue? {
        do {
            let stored = try store.plainColumnValue(column, of: attribute, table: entity.tableName, column: name,
                                                    primaryKey: primaryKey)
            return try StoreValueCoding.attributeValue(stored, type: attribute.type)
        } catch let error as ValueDecodingError {
            throw StoreError(path: store.url.path, .unreadableAttribute(entity: entity.name, attribute: attribute.name, primaryKey: primaryKey,
                                                                        found: error.found, type: error.type.rawValue))
        }
    }
}

/// Reads the engine's bookkeeping columns of one row of a table, throwing a `StoreError` that
/// names the table, column and row for anything the column cannot hold. Public so that a reader
/// streaming rows with its own SQL checks them exactly as fetched objects are checked.
public struct RowReader {
    let row: Row
    let table: String
    let path: String

    /// `Z_PK`: SQLite keeps it an integer (it is the rowid), but a query may not have selected it.
    public func primaryKey() throws -> Int64 {
        guard let key = try integer("Z_PK") else {
            throw StoreError(path: path, mismatch: .unreadableValue(table: table, column: "Z_PK", primaryKey: nil,
                                                                    found: "no key"))
        }
        return key
    }

    /// The entity of the row from `Z_ENT`, which must be one stored in this table.
    public func entity(in schema: StoreSchema) throws -> EntityStorage {
        let key = try primaryKey()
        let number = try integer("Z_ENT")
        guard let entity = number.flatMap({ Int(exactly: $0) }).flatMap(schema.entity(number:)),
              entity.tableName == table else {
            throw StoreError(path: path, mismatch: .rowEntity(table: table, primaryKey: key, entityNumber: number))
        }
        return entity
    }

    /// The object ID of the row, from its `Z_PK` and `Z_ENT`.
    public func objectID(in schema: StoreSchema) throws -> ObjectID {
        ObjectID(entityName: try entity(in: schema).name, primaryKey: try primaryKey())
    }

    /// An integer column; nil for NULL, an error for text, blobs or numbers beyond Int64.
    public func integer(_ column: String) throws -> Int64? {
        try integer(try value(column), column: column)
    }

    /// The bookkeeping columns a query selected first, in this order: `Z_PK`, `Z_ENT`, `Z_OPT`.
    /// Read by position (a lookup by name per column and row costs more than the read), checked
    /// as `primaryKey()`, `entity(in:)` and `integer("Z_OPT")` check them.
    package func leadingBookkeeping(in schema: StoreSchema) throws -> (entity: EntityStorage, primaryKey: Int64) {
        guard let key = try integer(row[0], column: "Z_PK") else {
            throw StoreError(path: path, mismatch: .unreadableValue(table: table, column: "Z_PK", primaryKey: nil, found: "no key"))
        }
        let number = try integer(row[1], column: "Z_ENT")
        guard let entity = number.flatMap({ Int(exactly: $0) }).flatMap(schema.entity(number:)), entity.tableName == table else {
            throw StoreError(path: path, mismatch: .rowEntity(table: table, primaryKey: key, entityNumber: number))
        }
        _ = try integer(row[2], column: "Z_OPT")
        return (entity, key)
    }

    private func integer(_ value: DatabaseValue, column: String) throws -> Int64? {
        if value.isNull { return nil }
        guard let integer = Int64.fromDatabaseValue(value) else {
            let key = row.hasColumn("Z_PK") ? Int64.fromDatabaseValue(row["Z_PK"]) : nil
            throw StoreError(path: path, mismatch: .unreadableValue(table: table, column: column, primaryKey: key,
                                                                    found: "\(value)"))
        }
        return integer
    }

    /// The raw value of a column the query selected.
    package func value(_ column: String) throws -> DatabaseValue {
        guard row.hasColumn(column) else {
            throw StoreError(path: path, mismatch: .missingColumn(table: table, column: column))
        }
        return row[column]
    }
}
