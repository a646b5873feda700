import Foundation

/// How to migrate from one model version to another: entity mappings run in order, each making
/// destination objects from source objects with value expressions, like Core Data's
/// `NSMappingModel`. Read from an Xcode `.xcmappingmodel`, or inferred for lightweight changes.
public struct MappingModel: Equatable, Sendable {
    /// The mapping model's name (its file's name without the extension).
    public var name: String
    /// The entity mappings, in the order the migration runs them.
    public var entityMappings: [EntityMapping]
    /// Entity version hashes of the source and destination model versions: how a mapping model
    /// is found for a pair of versions, as Core Data does.
    public var sourceEntityHashes: [String: Data]
    /// Entity version hashes of the destination version: see `sourceEntityHashes`.
    public var destinationEntityHashes: [String: Data]

    /// A mapping model from its parts, as a reader or `MappingInference` makes it.
    public init(name: String, entityMappings: [EntityMapping], sourceEntityHashes: [String: Data],
                destinationEntityHashes: [String: Data]) {
        self.name = name
        self.entityMappings = entityMappings
        self.sourceEntityHashes = sourceEntityHashes
        self.destinationEntityHashes = destinationEntityHashes
    }

    /// The entity mapping of this name, for `destinationInstancesForEntityMappingNamed:`.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }

    /// Whether this mapping model migrates stores of `source` to `destination`.
    public func maps(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> Bool {
        sourceEntityHashes == source.entityVersionHashes && destinationEntityHashes == destination.entityVersionHashes
    }

    /// The mapping model among `candidates` for the pair of versions, by version hashes.
    public static func find(in candidates: [MappingModel], from source: ManagedObjectModel,
                            to destination: ManagedObjectModel) -> MappingModel? {
        candidates.first { $0.maps(from: source, to: destination) }
    }
}

/// One entity mapping: which source objects (entity and filter) become which destination
/// objects, and how their properties are computed. As in Core Data, it takes the objects of
/// exactly its source entity: sub-entities have mappings of their own.
public struct EntityMapping: Equatable, Sendable {
    /// Core Data's name, `<Source>To<Destination>`, used by `destinationInstancesForEntityMappingNamed:`.
    public var name: String
    /// The entity whose objects this mapping reads; nil for a mapping that only adds objects.
    public var sourceEntityName: String?
    /// The entity whose objects this mapping makes; nil for a mapping that only drops objects.
    public var destinationEntityName: String?
    /// Selects the source objects to migrate (`image != nil`); nil migrates all.
    public var filterPredicate: ObjectPredicate?
    /// The custom migration policy's class name as written in the mapping model
    /// (`UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4`); nil for the default.
    public var policyClassName: String?
    /// Free-form settings from the mapping model, which a custom policy may read.
    public var userInfo: [String: String]
    /// Destination attribute name -> value expression; sorted by name.
    public var attributeMappings: [PropertyMapping]
    /// Destination relationship name -> value expression; sorted by name.
    public var relationshipMappings: [PropertyMapping]

    /// An entity mapping from its parts.
    public init(name: String, sourceEntityName: String?, destinationEntityName: String?,
                filterPredicate: ObjectPredicate? = nil,
                policyClassName: String? = nil,
                userInfo: [String: String] = [:], attributeMappings: [PropertyMapping] = [],
                relationshipMappings: [PropertyMapping] = []) {
        self.name = name
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
        self.filterPredicate = filterPredicate
        self.policyClassName = policyClassName
        self.userInfo = userInfo
        self.attributeMappings = attributeMappings.sorted { $0.name < $1.name }
        self.relationshipMappings = relationshipMappings.sorted { $0.name < $1.name }
    }
}

/// A destination property and the expression that computes its value; no expression leaves the
/// property at its default.
public struct PropertyMapping: Equatable, Sendable {
    /// The destination property's name.
    public var name: String
    /// How the value is computed from the source object (`$source.title`); nil keeps the default.
    public var valueExpression: ValueExpression?
    /// Free-form settings from the mapping model, which a custom policy may read.
    public var userInfo: [String: String]

    /// A property mapping from its parts.
    public init(name: String, valueExpression: ValueExpression?, userInfo: [String: String] = [:]) {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
    }
}

extension ValueExpression {
    /// `$source.<key>`.
    public static func source(_ components: String...) -> ValueExpression {
        .keyPath(base: .variable("source"), components: components)
    }

    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", <instances>)`.
    public static func destinationInstances(mapping: String, sourceInstances: ValueExpression) -> ValueExpression {
        .function(target: .variable("manager"), selector: MigrationSelectors.destinationInstances,
                  arguments: [.constant(.string(mapping)), sourceInstances])
    }
}

/// The selectors of the migration manager that mapping expressions call.
public enum MigrationSelectors {
    /// Finds the destination objects an entity mapping made from the given source objects.
    public static let destinationInstances = "destinationInstancesForEntityMappingNamed:sourceInstances:"
    /// Finds the source objects an entity mapping made the given destination objects from.
    public static let sourceInstances = "sourceInstancesForEntityMappingNamed:destinationInstances:"
    /// What inferred mappings use for relationships: the destination objects made from the
    /// source objects by whichever entity mapping migrated them (a relationship to an entity
    /// with sub-entities reaches objects of several mappings).
    public static let destinationInstancesForRelationship = "destinationInstancesForSourceRelationshipNamed:sourceInstances:"
}
