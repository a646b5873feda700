/// How a model version is laid out in a Core Data SQLite store: entity numbers, one table per
/// inheritance hierarchy, a column per stored property, join tables for many-to-many
/// relationships, and the indexes Core Data creates.
///
/// Everything that reads or writes rows (the context, migrations, `store export`) asks this type
/// where a property lives, so the layout rules are written once.
public struct StoreSchema: Sendable {
    /// The model version laid out.
    public let model: ManagedObjectModel
    /// Entities in entity-number order (`Z_ENT` 1, 2, …).
    public let entities: [EntityStorage]
    /// One table per inheritance hierarchy.
    public let tables: [TableStorage]
    /// One join table per many-to-many relationship.
    public let joinTables: [JoinTable]
    private let entityIndex: [String: Int]

    /// Lays out `model`, numbering its entities as Core Data does; throws when a layout rule is broken.
    /// The layout is built once per model version (`StoreLayoutCache`) and shared after.
    public init(model: ManagedObjectModel) throws {
        self.model = model
        let layout = try model.layoutCache.layout {
            let numbered = EntityNumbering.order(of: model)
            var index: [String: Int] = [:]
            for (position, entity) in numbered.enumerated() { index[entity.name] = position }
            let layout = try SchemaLayout(model: model, numbered: numbered)
            return StoreLayoutCache.Layout(entities: layout.entities, tables: layout.tables, joinTables: layout.joinTables,
                                           entityIndex: index)
        }
        self.entityIndex = layout.entityIndex
        self.entities = layout.entities
        self.tables = layout.tables
        self.joinTables = layout.joinTables
    }

    /// Where the entity of this name is stored.
    public func entity(named name: String) -> EntityStorage? {
        entityIndex[name].map { entities[$0] }
    }

    /// Where an entity of the schema's own model is stored. The schema is laid out from that
    /// model, every entity of it included, so a name from it always has storage: a miss is a
    /// programming error (an entity of another model), never bad input, and traps saying so.
    func storage(ofModelEntity name: String) -> EntityStorage {
        guard let storage = entity(named: name) else { preconditionFailure("the store schema has no entity \(name) of its own model") }
        return storage
    }

    /// The entity stored with this `Z_ENT`, for rows read from a shared table.
    public func entity(number: Int) -> EntityStorage? {
        number >= 1 && number <= entities.count ? entities[number - 1] : nil
    }

    /// The table of this name.
    public func table(named name: String) -> TableStorage? {
        tables.first { $0.name == name }
    }
}

/// Core Data's entity numbering: root entities in alphabetical order, each followed at once by
/// its sub-entities, depth first (siblings alphabetical too).
enum EntityNumbering {
    static func order(of model: ManagedObjectModel) -> [EntityDescription] {
        var ordered: [EntityDescription] = []
        func visit(_ entity: EntityDescription) {
            ordered.append(entity)
            model.subentities(of: entity.name).sorted { $0.name < $1.name }.forEach(visit)
        }
        model.entities.filter { $0.parentName == nil }.sorted { $0.name < $1.name }.forEach(visit)
        return ordered
    }
}
