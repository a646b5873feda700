import Foundation

/// One version of a data model: its entities, checked for consistency, with Core Data's version
/// hashes computed once.
///
/// A value of this type is always valid: the initializer runs `ModelValidator`, so code further up
/// (stores, migrations) never has to guard against dangling references or inheritance cycles.
public struct ManagedObjectModel: Sendable {
    /// The version's name, e.g. `UnCloudNotesDataModel v2` (the `.xcdatamodel` folder name).
    public let name: String
    /// `userDefinedModelVersionIdentifier`, empty when the model has none.
    public let versionIdentifier: String
    /// The version's entities, in the model file's order (which fixes their `Z_ENT` numbers).
    public let entities: [EntityDescription]
    /// Entity name -> 32-byte SHA-256 version hash, exactly as Core Data computes it.
    public let entityVersionHashes: [String: Data]

    private let entityIndex: [String: Int]
    /// The version's store layout, built once when first asked for (`StoreSchema(model:)`).
    let layoutCache = StoreLayoutCache()

    /// A model version of `entities`, validated first: an inconsistent model throws `ModelError`.
    /// - Parameter sourceName: the file the model came from, named in validation errors.
    /// - Parameter name: the version's name (its `.xcdatamodel` folder's).
    /// - Parameter versionIdentifier: `userDefinedModelVersionIdentifier`, empty when none.
    /// - Parameter entities: the entities, in the file's order.
    public init(name: String, versionIdentifier: String = "", entities: [EntityDescription],
                sourceName: String) throws {
        try ModelValidator(entities: entities, sourceName: sourceName).validate()
        self.name = name
        self.versionIdentifier = versionIdentifier
        self.entities = entities
        var index: [String: Int] = [:]
        for (position, entity) in entities.enumerated() { index[entity.name] = position }
        self.entityIndex = index
        self.entityVersionHashes = VersionHasher.entityHashes(of: entities)
    }

    /// The entity of this name, found through an index built once.
    public func entity(named name: String) -> EntityDescription? {
        entityIndex[name].map { entities[$0] }
    }

    /// The entity's ancestors, nearest parent first.
    public func ancestors(of entityName: String) -> [EntityDescription] {
        var chain: [EntityDescription] = []
        var next = entity(named: entityName)?.parentName
        while let parentName = next, let parent = entity(named: parentName) {
            chain.append(parent)
            next = parent.parentName
        }
        return chain
    }

    /// The entity at the top of the entity's inheritance chain (itself when it has no parent).
    public func rootEntity(of entityName: String) -> EntityDescription? {
        ancestors(of: entityName).last ?? entity(named: entityName)
    }

    /// The entities whose parent is the given one, in declaration order.
    public func subentities(of entityName: String) -> [EntityDescription] {
        entities.filter { $0.parentName == entityName }
    }

    /// True when `entityName` is `ancestorName` or inherits from it.
    public func entity(_ entityName: String, isKindOf ancestorName: String) -> Bool {
        entityName == ancestorName || ancestors(of: entityName).contains { $0.name == ancestorName }
    }

    /// Attributes including inherited ones, the root's first.
    public func allAttributes(of entityName: String) -> [AttributeDescription] {
        lineage(of: entityName).flatMap(\.attributes)
    }

    /// Relationships including inherited ones, the root's first.
    public func allRelationships(of entityName: String) -> [RelationshipDescription] {
        lineage(of: entityName).flatMap(\.relationships)
    }

    /// The inverse of a relationship, looked up on its destination entity (inherited ones included).
    public func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName else { return nil }
        return allRelationships(of: relationship.destinationEntityName).first { $0.name == inverseName }
    }

    /// Root first, the entity itself last.
    private func lineage(of entityName: String) -> [EntityDescription] {
        guard let entity = entity(named: entityName) else { return [] }
        return ancestors(of: entityName).reversed() + [entity]
    }
}

extension ManagedObjectModel {
    /// The hash of the whole version (`NSStoreModelVersionChecksumKey`).
    public var versionChecksum: String { VersionHasher.checksum(of: entityVersionHashes) }

    /// The digest of the whole version (`NSStoreModelVersionHashesDigest`).
    public var versionHashesDigest: String { VersionHasher.digest(of: entityVersionHashes) }
}
