/// Works out tables, columns, join tables and indexes for `StoreSchema`, following the rules of
/// Core Data's SQLite store (see `docs/store-format.md`).
struct SchemaLayout {
    private(set) var entities: [EntityStorage] = []
    private(set) var tables: [TableStorage] = []
    private(set) var joinTables: [JoinTable] = []

    private let model: ManagedObjectModel
    private let numbers: [String: Int]
    /// Own (not inherited) columns per entity, filled table by table.
    private var ownAttributeColumns: [String: [String: Column]] = [:]
    private var ownToOneColumns: [String: [String: ToOneColumns]] = [:]
    private var ownToManyStorage: [String: [String: ToManyStorage]] = [:]

    init(model: ManagedObjectModel, numbered: [EntityDescription]) throws {
        self.model = model
        var numbers: [String: Int] = [:]
        for (position, entity) in numbered.enumerated() { numbers[entity.name] = position + 1 }
        self.numbers = numbers

        let roots = numbered.filter { $0.parentName == nil }
        for root in roots {
            layOutTable(root: root, members: numbered.filter { model.rootEntity(of: $0.name)?.name == root.name })
        }
        try layOutToManyRelationships(numbered)
        entities = numbered.map(storage)
    }

    // MARK: Tables and their columns

    private mutating func layOutTable(root: EntityDescription, members: [EntityDescription]) {
        let tableName = "Z" + root.name.uppercased()
        var allocator = ColumnAllocator()
        var columns: [Column] = []
        var indexes: [IndexStorage] = []
        for member in members {
            var attributeColumns: [String: Column] = [:]
            var foreignKeys: [String: ToOneColumns] = [:]
            let stored = member.attributes.filter { !$0.isTransient }
            let toOnes = member.relationships.filter { !$0.isToMany && !$0.isTransient }.sorted { $0.name < $1.name }
            func attributes(_ types: [ColumnType]) -> [AttributeDescription] {
                stored.filter { types.contains(ColumnType($0.type)) }.sorted { $0.name < $1.name }
            }
            func add(_ attribute: AttributeDescription) {
                let column = Column(name: allocator.allocate("Z" + attribute.name.uppercased()),
                                    type: ColumnType(attribute.type))
                attributeColumns[attribute.name] = column
                columns.append(column)
                if attribute.isIndexed {
                    indexes.append(IndexStorage(name: "\(tableName)_\(column.name)_INDEX", isUnique: false,
                                                elements: [column.name.sqlIdentifier]))
                }
            }
            attributes([.integer]).forEach(add)
            for relationship in toOnes {
                let foreignKey = toOneColumns(for: relationship, allocator: &allocator)
                foreignKeys[relationship.name] = foreignKey
                columns.append(contentsOf: [foreignKey.key, foreignKey.entity, foreignKey.orderKey].compactMap { $0 })
                indexes.append(IndexStorage(name: "\(tableName)_\(foreignKey.key.name)_INDEX", isUnique: false,
                                            elements: [foreignKey.key.name.sqlIdentifier]))
            }
            attributes([.timestamp]).forEach(add)
            attributes([.float, .decimal]).forEach(add)
            attributes([.varchar]).forEach(add)
            attributes([.blob]).forEach(add)
            ownAttributeColumns[member.name] = attributeColumns
            ownToOneColumns[member.name] = foreignKeys
        }
        if members.count > 1 {
            indexes.insert(IndexStorage(name: "\(tableName)_Z_ENT_INDEX", isUnique: false, elements: ["Z_ENT"]), at: 0)
        }
        for member in members {
            indexes.append(contentsOf: constraintAndFetchIndexes(of: member, table: tableName))
        }
        tables.append(TableStorage(name: tableName, rootEntity: root.name, columns: columns, indexes: indexes))
    }

    private func toOneColumns(for relationship: RelationshipDescription,
                              allocator: inout ColumnAllocator) -> ToOneColumns {
        let upper = relationship.name.uppercased()
        let key = Column(name: allocator.allocate("Z" + upper), type: .integer)
        let destination = relationship.destinationEntityName
        var entityColumn: Column?
        if !model.subentities(of: destination).isEmpty, let number = numbers[destination] {
            entityColumn = Column(name: allocator.allocate("Z\(number)_\(upper)"), type: .integer)
        }
        var orderKey: Column?
        if let inverse = model.inverse(of: relationship), inverse.isToMany, inverse.isOrdered {
            orderKey = Column(name: allocator.allocate("Z_FOK_\(upper)"), type: .integer)
        }
        return ToOneColumns(key: key, entity: entityColumn, orderKey: orderKey)
    }

    /// Unique indexes for uniqueness constraints, and the entity's fetch indexes.
    private func constraintAndFetchIndexes(of entity: EntityDescription, table: String) -> [IndexStorage] {
        func column(_ property: String) -> String {
            lineage(of: entity.name).lazy.compactMap {
                ownAttributeColumns[$0]?[property]?.name ?? ownToOneColumns[$0]?[property]?.key.name
            }.first ?? "Z" + property.uppercased()
        }
        let unique = entity.uniquenessConstraints.map { properties in
            IndexStorage(name: "Z_\(entity.name)_UNIQUE_\(properties.joined(separator: "_"))", isUnique: true,
                         elements: properties.map { "\(column($0).sqlIdentifier) COLLATE BINARY ASC" })
        }
        let fetch = entity.fetchIndexes.map { index in
            IndexStorage(name: "Z_\(entity.name)_\(index.name)", isUnique: false,
                         elements: index.elements.map {
                             "\(column($0.property).sqlIdentifier) COLLATE BINARY \($0.isAscending ? "ASC" : "DESC")"
                         })
        }
        return unique + fetch
    }

    // MARK: To-many relationships

    private mutating func layOutToManyRelationships(_ numbered: [EntityDescription]) throws {
        for entity in numbered {
            var storage: [String: ToManyStorage] = [:]
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
                guard let inverse = model.inverse(of: relationship) else {
                    throw ModelError(file: model.name, entity: entity.name, property: relationship.name,
                                     reason: .toManyWithoutInverse)
                }
                if inverse.isToMany {
                    storage[relationship.name] = manyToMany(entity, relationship, inverse)
                } else {
                    storage[relationship.name] = try oneToMany(relationship, inverse)
                }
            }
            ownToManyStorage[entity.name] = storage
        }
    }

    private func oneToMany(_ relationship: RelationshipDescription,
                           _ inverse: RelationshipDescription) throws -> ToManyStorage {
        let owner = declaringEntity(of: inverse, below: relationship.destinationEntityName)
        // The to-one side's columns are laid out before any to-many (the order of `layout`).
        let columns = ownToOneColumns[owner]![inverse.name]!
        let table = "Z" + (model.rootEntity(of: owner)?.name.uppercased() ?? owner.uppercased())
        return .inverseForeignKey(table: table, column: columns.key.name,
                                  destination: relationship.destinationEntityName,
                                  orderColumn: relationship.isOrdered ? columns.orderKey?.name : nil)
    }

    /// Both sides share one join table, named after the side with the lower entity number.
    private mutating func manyToMany(_ entity: EntityDescription, _ relationship: RelationshipDescription,
                                     _ inverse: RelationshipDescription) -> ToManyStorage {
        let otherEntity = declaringEntity(of: inverse, below: relationship.destinationEntityName)
        // Every entity of the model is numbered before relationships are laid out.
        let ownNumber = numbers[entity.name]!, otherNumber = numbers[otherEntity]!
        let ownSideNames = (ownNumber, relationship.name) < (otherNumber, inverse.name)
        let namingNumber = ownSideNames ? ownNumber : otherNumber
        let namingRelationship = ownSideNames ? relationship.name : inverse.name
        let tableName = "Z_\(namingNumber)\(namingRelationship.uppercased())"
        let ownerColumn = "Z_\(ownNumber)\(inverse.name.uppercased())"
        var memberColumn = "Z_\(otherNumber)\(relationship.name.uppercased())"
        if memberColumn == ownerColumn { memberColumn += "1" }
        let orderColumn = relationship.isOrdered ? "Z_FOK_\(memberColumn)" : nil
        if let index = joinTables.firstIndex(where: { $0.name == tableName }) {
            if let orderColumn { joinTables[index] = joinTables[index].adding(orderColumn: orderColumn) }
        } else {
            let (first, second) = ownSideNames ? (ownerColumn, memberColumn) : (memberColumn, ownerColumn)
            joinTables.append(JoinTable(name: tableName, firstColumn: first, secondColumn: second,
                                        orderColumns: orderColumn.map { [$0] } ?? []))
        }
        return .joinTable(table: tableName, ownerColumn: ownerColumn, memberColumn: memberColumn,
                          destination: relationship.destinationEntityName, orderColumn: orderColumn)
    }

    /// The entity (the destination or one of its ancestors) that declares the relationship.
    private func declaringEntity(of relationship: RelationshipDescription, below destination: String) -> String {
        lineage(of: destination).last { model.entity(named: $0)?.relationships.contains(relationship) == true }
            ?? destination
    }

    // MARK: Composition

    /// Root first.
    private func lineage(of entityName: String) -> [String] {
        model.ancestors(of: entityName).reversed().map(\.name) + [entityName]
    }

    private func storage(for entity: EntityDescription) -> EntityStorage {
        let chain = lineage(of: entity.name)
        func merged<Value>(_ own: [String: [String: Value]]) -> [String: Value] {
            chain.reduce(into: [:]) { result, name in result.merge(own[name] ?? [:]) { $1 } }
        }
        let root = chain.first! // a lineage holds at least the entity itself
        return EntityStorage(
            name: entity.name,
            number: numbers[entity.name]!, // every entity of the model is numbered before any is composed
            superNumber: entity.parentName.flatMap { numbers[$0] } ?? 0,
            rootName: root,
            tableName: "Z" + root.uppercased(),
            kindNumbers: model.entities.filter { model.entity($0.name, isKindOf: entity.name) }
                .compactMap { numbers[$0.name] }.sorted(),
            attributeColumns: merged(ownAttributeColumns),
            toOneColumns: merged(ownToOneColumns),
            toManyStorage: merged(ownToManyStorage))
    }
}

/// Hands out column names within one table, adding Core Data's numeric suffix on a collision.
struct ColumnAllocator {
    private var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

    mutating func allocate(_ name: String) -> String {
        var candidate = name
        var suffix = 1
        while used.contains(candidate) {
            candidate = "\(name)\(suffix)"
            suffix += 1
        }
        used.insert(candidate)
        return candidate
    }
}

private extension JoinTable {
    func adding(orderColumn: String) -> JoinTable {
        JoinTable(name: name, firstColumn: firstColumn, secondColumn: secondColumn,
                  orderColumns: orderColumns + [orderColumn])
    }
}
