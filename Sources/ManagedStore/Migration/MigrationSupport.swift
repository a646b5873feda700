import Foundation

/// Why a migration failed. The source store is never changed, and no partial destination file
/// is left behind.
public struct MigrationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public static let cancelled = MigrationError("the migration was cancelled")

    public var description: String { reason }
}

/// Where a migration is, often enough for a progress bar.
public struct MigrationProgress: Equatable, Sendable {
    public enum Stage: String, Sendable {
        case creatingObjects = "creating objects"
        case creatingRelationships = "linking relationships"
        case validating = "validating"
    }

    /// Of the whole migration, 0...1.
    public var fraction: Double
    public var stage: Stage
    /// The entity mapping being run, nil while validating.
    public var entityMappingName: String?
}

/// Lets another thread stop a migration between two batches; the migration then throws
/// `MigrationError.cancelled` and cleans up.
public final class MigrationCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}

/// An entity migration policy, with Core Data's lifecycle: the manager calls these, in this
/// order, for every entity mapping. The defaults do what the mapping says; subclass to customise
/// and register the subclass under the class name the mapping model names.
open class EntityMigrationPolicy: KeyValueReadable, ExpressionFunctionTarget {
    public required init() {}

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

    open func endRelationshipCreation(for mapping: EntityMapping, manager: MigrationManager) throws {}

    open func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {}

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

/// The policy classes a program knows, by the class name mapping models write
/// (`Module.ClassName`). A mapping model naming an unknown class is refused before any work.
public struct MigrationPolicyRegistry: Sendable {
    private var types: [String: EntityMigrationPolicy.Type] = [:]

    public init() {}

    public mutating func register(_ type: EntityMigrationPolicy.Type, as className: String) {
        types[className] = type
    }

    public var classNames: [String] { types.keys.sorted() }

    func makePolicy(named className: String?, for mapping: String) throws -> EntityMigrationPolicy {
        guard let className else { return EntityMigrationPolicy() }
        guard let type = types[className] else {
            let known = classNames.isEmpty ? "none" : classNames.joined(separator: ", ")
            throw MigrationError("entity mapping \(mapping) names the migration policy \(className), which this program does not know (known policies: \(known))")
        }
        return type.init()
    }
}
