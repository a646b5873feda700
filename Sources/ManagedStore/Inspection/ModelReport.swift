import Foundation

/// A plain, Codable description of a versioned model with its version hashes: the stable JSON of
/// `uncloudnotes model show --json` (documented in `docs/model-files.md`), and the input of the
/// text listing. Optional fields are left out when unset.
public struct ModelReport: Codable, Equatable, Sendable {
    /// One model version: its identity as stored in store metadata, and its entities.
    public struct Version: Codable, Equatable, Sendable {
        /// The version's name, as in the `.xcdatamodeld` (`UnCloudNotesDataModel v2`).
        public var name: String
        /// Whether `.xccurrentversion` names this version as the current one.
        public var isCurrent: Bool
        /// The model's version identifier from Xcode's inspector; often empty.
        public var versionIdentifier: String
        /// Base64, as `NSStoreModelVersionChecksumKey` in a store's metadata.
        public var versionChecksum: String
        /// Base64, as `NSStoreModelVersionHashesDigest` in a store's metadata.
        public var versionHashesDigest: String
        /// The version's entities, in the model's order.
        public var entities: [Entity]

        enum CodingKeys: String, CodingKey {
            case name, isCurrent = "current", versionIdentifier, versionChecksum, versionHashesDigest, entities
        }
    }

    /// One entity, with what goes into its version hash and what does not.
    public struct Entity: Codable, Equatable, Sendable {
        /// The entity's name.
        public var name: String
        /// The class the app declares for the entity, if the model names one.
        public var className: String?
        /// The parent entity's name, for a sub-entity.
        public var parent: String?
        /// Whether the entity has no objects of its own (only its sub-entities do).
        public var isAbstract: Bool
        /// The renaming identifier, how a migration recognises a renamed entity.
        public var renamingIdentifier: String?
        /// Changes the version hash without a schema change, to force a migration.
        public var versionHashModifier: String?
        /// Hex of the 32-byte entity version hash.
        public var versionHash: String
        /// The entity's own attributes, in declaration order.
        public var attributes: [Attribute]
        /// The entity's own relationships, in declaration order.
        public var relationships: [Relationship]
        /// Lists of property names that together must be unique.
        public var uniquenessConstraints: [[String]]
        /// The indexes the store creates for the entity.
        public var fetchIndexes: [FetchIndex]

        enum CodingKeys: String, CodingKey {
            case name, className, parent, isAbstract = "abstract", renamingIdentifier, versionHashModifier,
                 versionHash, attributes, relationships, uniquenessConstraints, fetchIndexes
        }
    }

    /// One attribute, with the settings that decide its column and its version hash.
    public struct Attribute: Codable, Equatable, Sendable {
        /// The attribute's name.
        public var name: String
        /// The attribute type as Xcode names it (`String`, `Integer 64`, `Binary`, …).
        public var type: String
        /// Whether the attribute may be left without a value.
        public var isOptional: Bool
        /// Whether the value is kept in memory only, never stored.
        public var isTransient: Bool
        /// The default value as written in the model file.
        public var defaultValue: String?
        /// The value transformer's name, for a Transformable attribute.
        public var valueTransformer: String?
        /// The renaming identifier, how a migration recognises a renamed attribute.
        public var renamingIdentifier: String?
        /// Changes the version hash without a schema change, to force a migration.
        public var versionHashModifier: String?
        /// Whether large values may be kept in files beside the store (`_EXTERNAL_DATA`).
        public var allowsExternalBinaryDataStorage: Bool
        /// Whether persistent history keeps the value in the tombstone of a deleted object.
        public var preserveAfterDeletion: Bool
        /// Whether the store keeps an index on the attribute's column.
        public var isIndexed: Bool

        enum CodingKeys: String, CodingKey {
            case name, type, isOptional = "optional", isTransient = "transient", defaultValue = "default",
                 valueTransformer, renamingIdentifier, versionHashModifier, allowsExternalBinaryDataStorage,
                 preserveAfterDeletion, isIndexed = "indexed"
        }
    }

    /// One relationship, with its inverse, cardinality and delete rule.
    public struct Relationship: Codable, Equatable, Sendable {
        /// The relationship's name.
        public var name: String
        /// The name of the entity it points to.
        public var destination: String
        /// The inverse relationship's name; Core Data expects every relationship to have one.
        public var inverse: String?
        /// Whether the relationship may be empty.
        public var isOptional: Bool
        /// Whether it is kept in memory only, never stored.
        public var isTransient: Bool
        /// Whether it holds a set of objects rather than one.
        public var isToMany: Bool
        /// Whether a to-many relationship keeps its members in order.
        public var isOrdered: Bool
        /// The least number of members; 0 for no bound.
        public var minCount: Int
        /// The greatest number of members; 0 for no bound, 1 for a to-one relationship.
        public var maxCount: Int
        /// What deleting the object does to the related ones (`Nullify`, `Cascade`, …).
        public var deleteRule: String
        /// The renaming identifier, how a migration recognises a renamed relationship.
        public var renamingIdentifier: String?
        /// Changes the version hash without a schema change, to force a migration.
        public var versionHashModifier: String?

        enum CodingKeys: String, CodingKey {
            case name, destination, inverse, isOptional = "optional", isTransient = "transient",
                 isToMany = "toMany", isOrdered = "ordered", minCount, maxCount, deleteRule,
                 renamingIdentifier, versionHashModifier
        }
    }

    /// A fetch index: properties the store indexes together.
    public struct FetchIndex: Codable, Equatable, Sendable {
        /// The index's name in the model.
        public var name: String
        /// The indexed properties in order, each with ` descending` when it sorts downwards.
        public var elements: [String]
    }

    /// The model's name, from the `.xcdatamodeld` folder.
    public var model: String
    /// Where the model was read from, as the user named it.
    public var source: String
    /// The name of the version `.xccurrentversion` names.
    public var currentVersion: String
    /// Every version of the model, in version order.
    public var versions: [Version]

    /// Describes every version of `model`; `source` is the path to show for it.
    public init(model: VersionedModel, source: String) {
        self.model = model.name
        self.source = source
        self.currentVersion = model.currentVersionName
        self.versions = model.versions.map { version in
            Version(name: version.name,
                    isCurrent: version.name == model.currentVersionName,
                    versionIdentifier: version.versionIdentifier,
                    versionChecksum: version.versionChecksum,
                    versionHashesDigest: version.versionHashesDigest,
                    // The version's hashes are computed from its entities, one for each.
                    entities: version.entities.map { Entity($0, hash: version.entityVersionHashes[$0.name]!) })
        }
    }

    /// Pretty, key-sorted JSON: the same model always gives the same bytes.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension ModelReport.Entity {
    init(_ entity: EntityDescription, hash: Data) {
        self.init(
            name: entity.name, className: entity.className, parent: entity.parentName,
            isAbstract: entity.isAbstract, renamingIdentifier: entity.renamingIdentifier,
            versionHashModifier: entity.versionHashModifier, versionHash: hash.hexString,
            attributes: entity.attributes.map(ModelReport.Attribute.init),
            relationships: entity.relationships.map(ModelReport.Relationship.init),
            uniquenessConstraints: entity.uniquenessConstraints,
            fetchIndexes: entity.fetchIndexes.map { index in
                ModelReport.FetchIndex(name: index.name, elements: index.elements.map {
                    $0.isAscending ? $0.property : "\($0.property) descending"
                })
            })
    }
}

extension ModelReport.Attribute {
    init(_ attribute: AttributeDescription) {
        self.init(
            name: attribute.name, type: attribute.type.rawValue, isOptional: attribute.isOptional,
            isTransient: attribute.isTransient, defaultValue: attribute.defaultValue?.displayText,
            valueTransformer: attribute.valueTransformerName,
            renamingIdentifier: attribute.renamingIdentifier,
            versionHashModifier: attribute.versionHashModifier,
            allowsExternalBinaryDataStorage: attribute.allowsExternalBinaryDataStorage,
            preserveAfterDeletion: attribute.preservesValueAfterDeletion, isIndexed: attribute.isIndexed)
    }
}

extension ModelReport.Relationship {
    init(_ relationship: RelationshipDescription) {
        self.init(
            name: relationship.name, destination: relationship.destinationEntityName,
            inverse: relationship.inverseName, isOptional: relationship.isOptional,
            isTransient: relationship.isTransient, isToMany: relationship.isToMany,
            isOrdered: relationship.isOrdered, minCount: relationship.minCount,
            maxCount: relationship.maxCount, deleteRule: relationship.deleteRule.rawValue,
            renamingIdentifier: relationship.renamingIdentifier,
            versionHashModifier: relationship.versionHashModifier)
    }
}

extension Data {
    /// Lower-case hex, the form version hashes are shown in.
    public var hexString: String {
        map { String(format: "%02x", $0) }.joined()
    }
}
