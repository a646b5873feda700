/// An entity migration policy, with Core Data's lifecycle: the manager calls these, in this
/// order, for every entity mapping. The defaults do what the mapping says; subclass to customise
/// and register the subclass under the class name the mapping model names.
open class EntityMigrationPolicy: KeyValueReadable, ExpressionFunctionTarget {
    /// Policies are made by the registry from their type, once per entity mapping, hence `required`.
    public required init() {}

    /// Called before the mapping's first object, to prepare what the policy needs.
    open func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Creates the destination object(s) for one source object: by default one object of the
    /// mapping's destination entity, its attributes set from the mapping's value expressions (and
    /// a `SetBasedMigrationPolicy`'s computed values), and associated with the source.
    open func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                         manager: MigrationManager) throws {
        guard let entityName = mapping.destinationEntityName else { return }
        let destination = try manager.insertDestinationObject(entityName: entityName)
        for attribute in mapping.attributeMappings {
            guard let expression = attribute.valueExpression else { continue }
            let value = try manager.evaluate(expression, source: source, mapping: mapping, policy: self)
            try manager.setAttribute(value, forKey: attribute.name, of: destination)
        }
        try (self as? SetBasedMigrationPolicy)?.setComputedValues(of: destination, from: source, in: mapping, manager: manager)
        manager.associate(source: source, destination: destination, mapping: mapping)
    }

    /// Called once every object of the mapping exists, before any relationship is set.
    open func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Sets the relationships of one destination object from the mapping's value expressions.
    open func createRelationships(forDestination destination: ManagedObject, in mapping: EntityMapping,
                                  manager: MigrationManager) throws {
        guard let source = try manager.sourceInstances(forEntityMappingNamed: mapping.name, destinationInstances: [destination]).first else { return }
        for relationship in mapping.relationshipMappings {
            guard let expression = relationship.valueExpression else { continue }
            let value = try manager.evaluate(expression, source: source, mapping: mapping, policy: self)
            try manager.setRelationship(value, forKey: relationship.name, of: destination)
        }
    }

    /// Called once the mapping's relationships are set.
    open func endRelationshipCreation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Called in the validation stage, for checks the model's own rules cannot express.
    open func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    /// Called last for the mapping, to release what `beginEntityMapping` prepared.
    open func endEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {}

    /// True when `createRelationships` is the default one, so the manager may link whole tables
    /// at once with SQL. A subclass that overrides `createRelationships` returns false.
    open var createsRelationshipsFromMappingExpressions: Bool { true }

    /// `$entityPolicy.key` in expressions; a subclass may expose values.
    open func expressionValue(forKey key: String) throws -> ExpressionValue {
        throw ExpressionEvaluationError("the migration policy has no value for \"\(key)\"")
    }

    /// `FUNCTION($entityPolicy, "selector:", …)` in expressions; a subclass may implement selectors.
    open func perform(selector: String, arguments: [ExpressionValue]) throws -> ExpressionValue {
        throw ExpressionEvaluationError("the migration policy \(type(of: self)) does not implement \(selector)")
    }
}
