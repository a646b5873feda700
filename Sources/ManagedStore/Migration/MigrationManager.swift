import Foundation

/// Migrates a store with a mapping model, in Core Data's three stages: create the destination
/// objects (attributes), recreate the relationships, validate. The destination is a new file,
/// written as scratch (no journal, no syncs: the caller syncs it); the source is only read, so a
/// failure leaves it exactly as it was (and the new file is removed).
///
/// Entity mappings that SQL can express (plain `$source` key paths, constants, the
/// `destinationInstances…` function over a key path, SQL-able filters) run set-based, as
/// `INSERT … SELECT` between the attached source and the destination; custom policies and other
/// expressions run object by object. What runs which way is decided first (`CopyPlan`); either
/// way work proceeds in batches, and the association between source and destination objects
/// lives in temporary SQLite tables (`AssociationTables`), so memory stays flat however many
/// objects there are. This type is what policies see, as `NSMigrationManager`; the file's
/// lifecycle is `CopyingMigration`'s and the stages are in `MigrationStages.swift`.
public final class MigrationManager: KeyValueReadable, ExpressionFunctionTarget {
    /// The mapping model being run.
    public let mappingModel: MappingModel
    /// The model version of the source store.
    public let sourceModel: ManagedObjectModel
    /// The model version of the destination store.
    public let destinationModel: ManagedObjectModel
    /// Read-only context on the source store.
    public let sourceContext: ManagedObjectContext
    /// Context on the new destination store.
    public let destinationContext: ManagedObjectContext
    /// The entity mapping being run, for policies and `$manager.currentEntityMapping`.
    public internal(set) var currentEntityMapping: EntityMapping?
    /// Of the whole migration, 0...1.
    public internal(set) var migrationProgress: Double = 0

    let sourceStore: PersistentStore
    let destinationStore: PersistentStore
    let policies: [EntityMigrationPolicy]
    /// How each entity mapping runs, decided before anything is written.
    let plan: CopyPlan
    /// Where the made objects' sources are recorded.
    let associations: AssociationTables
    let progressHandler: ((MigrationProgress) -> Void)?
    let cancellation: MigrationCancellation?
    /// Objects the per-object path made whose associations are not recorded yet.
    var pendingAssociations: [(source: ObjectID, destination: ManagedObject, mapping: Int)] = []
    /// The work done and to do, for progress.
    var work = MigrationWork()
    /// Objects read and made, and time taken, by each entity mapping.
    var tally: EntityMappingTally

    /// Migrates the store at `sourceURL` (of `sourceModel`) into a new store at `destinationURL`.
    public static func migrateStore(from sourceURL: URL, sourceModel: ManagedObjectModel,
                                    to destinationURL: URL, destinationModel: ManagedObjectModel,
                                    mappingModel: MappingModel, policies: MigrationPolicyRegistry = MigrationPolicyRegistry(),
                                    options: StoreOptions = StoreOptions(),
                                    progress: ((MigrationProgress) -> Void)? = nil,
                                    cancellation: MigrationCancellation? = nil) throws {
        let resolved = try mappingModel.entityMappings.map { try policies.makePolicy(named: $0.policyClassName, for: $0.name) }
        try CopyingMigration.run(from: sourceURL, sourceModel: sourceModel, to: destinationURL, destinationModel: destinationModel,
                                 mappingModel: mappingModel, resolvedPolicies: resolved, options: options, progress: progress,
                                 cancellation: cancellation)
    }

    init(mappingModel: MappingModel, sourceStore: PersistentStore, destinationStore: PersistentStore, policies: [EntityMigrationPolicy],
         plan: CopyPlan, progress: ((MigrationProgress) -> Void)?, cancellation: MigrationCancellation?) {
        self.mappingModel = mappingModel
        self.sourceModel = sourceStore.model
        self.destinationModel = destinationStore.model
        self.sourceStore = sourceStore
        self.destinationStore = destinationStore
        self.sourceContext = ManagedObjectContext(store: sourceStore)
        self.destinationContext = ManagedObjectContext(store: destinationStore)
        self.policies = policies
        self.plan = plan
        self.associations = AssociationTables(plan: plan, database: destinationStore.database)
        self.progressHandler = progress
        self.cancellation = cancellation
        tally = EntityMappingTally(names: mappingModel.entityMappings.map(\.name))
    }

    // MARK: API for policies

    /// Inserts an object of a destination entity.
    public func insertDestinationObject(entityName: String) throws -> ManagedObject {
        try destinationContext.insertObject(entityName: entityName)
    }

    /// Records that `destination` was made from `source` by the mapping: what
    /// `destinationInstancesForEntityMappingNamed:` later answers. Forgetting it loses data.
    public func associate(source: ManagedObject, destination: ManagedObject, mapping: EntityMapping) {
        guard let index = mappingModel.entityMappings.firstIndex(where: { $0.name == mapping.name }) else { return }
        pendingAssociations.append((source.objectID, destination, index))
    }

    /// Evaluates a mapping expression with `$source`, `$manager`, `$entityPolicy`, `$entityMapping`.
    public func evaluate(_ expression: ValueExpression, source: ManagedObject, mapping: EntityMapping,
                         policy: EntityMigrationPolicy) throws -> ExpressionValue {
        let evaluator = ExpressionEvaluator(variables: [
            "source": .object(source), "manager": .object(self), "entityPolicy": .object(policy),
            "entityMapping": .object(EntityMappingValues(mapping)),
        ])
        return try evaluator.evaluate(expression, on: .object(source))
    }

    /// Sets an attribute from an evaluated value.
    public func setAttribute(_ value: ExpressionValue, forKey key: String, of object: ManagedObject) throws {
        switch value {
        case .null: object.setValue(nil, forKey: key)
        case .scalar(let scalar): object.setValue(scalar, forKey: key)
        case .object, .collection:
            throw MigrationError.mapping(.expressionGaveObjects(entity: object.entity.name, key: key))
        }
    }

    /// Sets a relationship from an evaluated value: objects of the destination store.
    public func setRelationship(_ value: ExpressionValue, forKey key: String, of object: ManagedObject) throws {
        let targets: [ManagedObject]
        switch value {
        case .null: targets = []
        case .object(let target as ManagedObject): targets = [target]
        case .collection(let items): targets = items.compactMap { if case .object(let target as ManagedObject) = $0 { target } else { nil } }
        default: throw MigrationError.mapping(.expressionGaveNoObjects(entity: object.entity.name, key: key))
        }
        guard let relationship = destinationModel.allRelationships(of: object.entity.name).first(where: { $0.name == key }) else {
            throw MigrationError.mapping(.noSuchRelationship(entity: object.entity.name, key: key))
        }
        if relationship.isToMany {
            let wanted = Set(targets.map(\.objectID))
            for member in object.objects(forKey: key) where !wanted.contains(member.objectID) { object.removeObject(member, forKey: key) }
            for target in targets { object.addObject(target, forKey: key) }
        } else {
            object.setObject(targets.first, forKey: key)
        }
    }

    /// The destination objects made by the mapping from the given source objects.
    public func destinationInstances(forEntityMappingNamed name: String, sourceInstances: [ManagedObject]) throws -> [ManagedObject] {
        let index = try mappingIndex(name)
        var result: [ManagedObject] = []
        for source in sourceInstances {
            result += pendingAssociations.filter { $0.mapping == index && $0.source == source.objectID }.map(\.destination)
            guard let key = source.objectID.primaryKey, let entity = sourceStore.schema.entity(named: source.entity.name) else { continue }
            let ids = try associations.destinations(of: index, sourceKey: key, sourceEntity: entity.number, in: destinationStore)
            result += ids.compactMap(destinationContext.object(with:))
        }
        return result
    }

    /// The destination objects made from the given source objects by any entity mapping.
    /// They come in the order of the source objects.
    public func destinationInstances(forSourceInstances sourceInstances: [ManagedObject]) throws -> [ManagedObject] {
        try sourceInstances.flatMap { source in
            try mappingModel.entityMappings.flatMap { try destinationInstances(forEntityMappingNamed: $0.name, sourceInstances: [source]) }
        }
    }

    /// The source objects the mapping made the given destination objects from.
    public func sourceInstances(forEntityMappingNamed name: String, destinationInstances: [ManagedObject]) throws -> [ManagedObject] {
        let index = try mappingIndex(name)
        var result: [ManagedObject] = []
        for destination in destinationInstances {
            if let pending = pendingAssociations.first(where: { $0.mapping == index && $0.destination === destination }) {
                result += [sourceContext.object(with: pending.source)].compactMap { $0 }
                continue
            }
            guard let key = destination.objectID.primaryKey else { continue }
            let ids = try associations.sources(of: index, destinationKey: key, in: sourceStore)
            result += ids.compactMap(sourceContext.object(with:))
        }
        return result
    }

    private func mappingIndex(_ name: String) throws -> Int {
        guard let index = mappingModel.entityMappings.firstIndex(where: { $0.name == name }) else {
            throw MigrationError.mapping(.noSuchEntityMapping(name))
        }
        return index
    }

    // MARK: $manager in expressions

    /// `$manager.key` in expressions: `migrationProgress` and `currentEntityMapping`, as in Core Data.
    public func expressionValue(forKey key: String) throws -> ExpressionValue {
        switch key {
        case "migrationProgress": return .scalar(.double(migrationProgress))
        case "currentEntityMapping": return currentEntityMapping.map { .object(EntityMappingValues($0)) } ?? .null
        default: throw ExpressionEvaluationError("the migration manager has no value for \"\(key)\"")
        }
    }

    /// `FUNCTION($manager, "selector:", name, objects)` in expressions: the instance look-ups of
    /// `MigrationSelectors`.
    public func perform(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        guard arguments.count == 2, case .scalar(.string(let name))? = arguments.first else {
            throw ExpressionEvaluationError("\(selector) takes a name and objects")
        }
        let objects: [ManagedObject]
        switch arguments[1] {
        case .object(let object as ManagedObject): objects = [object]
        case .collection(let items): objects = items.compactMap { if case .object(let object as ManagedObject) = $0 { object } else { nil } }
        default: objects = []
        }
        switch selector {
        case MigrationSelectors.destinationInstances:
            return .collection(try destinationInstances(forEntityMappingNamed: name, sourceInstances: objects).map { .object($0) })
        case MigrationSelectors.destinationInstancesForRelationship:
            return .collection(try destinationInstances(forSourceInstances: objects).map { .object($0) })
        case MigrationSelectors.sourceInstances:
            return .collection(try sourceInstances(forEntityMappingNamed: name, destinationInstances: objects).map { .object($0) })
        default:
            throw ExpressionEvaluationError("the migration manager does not implement \(selector)")
        }
    }
}
