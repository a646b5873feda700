import Foundation

/// A plain, Codable description of a versioned model with its version hashes: the stable JSON of
/// `uncloudnotes model show --json` (documented in `docs/model-files.md`), and the input of the
/// text listing. Optional fields are left out when unset.
public struct ModelReport: Codable, Equatable, Sendable {
    public struct Version: Codable, Equatable, Sendable {
        public var name: String
        public var isCurrent: Bool
        public var versionIdentifier: String
        /// Base64, as `NSStoreModelVersionChecksumKey` in a store's metadata.
        public var versionChecksum: String
        /// Base64, as `NSStoreModelVersionHashesDigest` in a store's metadata.
        public var versionHashesDigest: String
        public var entities: [Entity]

        enum CodingKeys: String, CodingKey {
            case name, isCurrent = "current", versionIdentifier, versionChecksum, versionHashesDigest, entities
        }
    }

    public struct Entity: Codable, Equatable, Sendable {
        public var name: String
        public var className: String?
        public var parent: String?
        public var isAbstract: Bool
        public var renamingIdentifier: String?
        public var versionHashModifier: String?
        /// Hex of the 32-byte entity version hash.
        public var versionHash: String
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        public var uniquenessConstraints: [[String]]
        public var fetchIndexes: [FetchIndex]

        enum CodingKeys: String, CodingKey {
            case name, className, parent, isAbstract = "abstract", renamingIdentifier, versionHashModifier,
                 versionHash, attributes, relationships, uniquenessConstraints, fetchIndexes
        }
    }

    public struct Attribute: Codable, Equatable, Sendable {
        public var name: String
        public var type: String
        public var isOptional: Bool
        public var isTransient: Bool
        public var defaultValue: String?
        public var valueTransformer: String?
        public var renamingIdentifier: String?
        public var versionHashModifier: String?
        public var allowsExternalBinaryDataStorage: Bool
        public var preserveAfterDeletion: Bool
        public var isIndexed: Bool

        enum CodingKeys: String, CodingKey {
            case name, type, isOptional = "optional", isTransient = "transient", defaultValue = "default",
                 valueTransformer, renamingIdentifier, versionHashModifier, allowsExternalBinaryDataStorage,
                 preserveAfterDeletion, isIndexed = "indexed"
        }
    }

    public struct Relationship: Codable, Equatable, Sendable {
        public var name: String
        public var destination: String
        public var inverse: String?
        public var isOptional: Bool
        public var isTransient: Bool
        public var isToMany: Bool
        public var isOrdered: Bool
        public var minCount: Int
        public var maxCount: Int
        public var deleteRule: String
        public var renamingIdentifier: String?
        public var versionHashModifier: String?

        enum CodingKeys: String, CodingKey {
            case name, destination, inverse, isOptional = "optional", isTransient = "transient",
                 isToMany = "toMany", isOrdered = "ordered", minCount, maxCount, deleteRule,
                 renamingIdentifier, versionHashModifier
        }
    }

    public struct FetchIndex: Codable, Equatable, Sendable {
        public var name: String
        public var elements: [String]
    }

    public var model: String
    public var source: String
    public var currentVersion: String
    public var versions: [Version]

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
