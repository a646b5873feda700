import Crypto
import Foundation

/// Core Data's version hashes: what makes a store "compatible" with a model.
///
/// Stores record the hash of every entity of the model that wrote them; a model opens a store only
/// when all hashes match, and migrations find their source and destination versions by them. The
/// recipe (SHA-256 over names, flags, type codes and nested hashes, integers little-endian) is
/// checked byte for byte against stores written by Apple's framework.
public enum VersionHasher {
    private static let optionalFlag: UInt16 = 1
    private static let transientFlag: UInt16 = 2

    /// Entity name -> 32-byte hash for every entity of a valid (cycle-free) model.
    static func entityHashes(of entities: [EntityDescription]) -> [String: Data] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var hashes: [String: Data] = [:]
        func hash(_ entity: EntityDescription) -> Data {
            if let known = hashes[entity.name] { return known }
            let parent = entity.parentName.flatMap { byName[$0] }
            let inherited = parent.map { inheritedProperties(of: $0, in: byName) } ?? ([], [])
            let result = entityHash(entity, parentHash: parent.map(hash),
                                    attributes: inherited.0 + entity.attributes,
                                    relationships: inherited.1 + entity.relationships)
            hashes[entity.name] = result
            return result
        }
        entities.forEach { _ = hash($0) }
        return hashes
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over name and hash of each entity, by name.
    public static func digest(of entityHashes: [String: Data]) -> String {
        var hasher = SHA512()
        for name in entityHashes.keys.sorted() {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: entityHashes[name]!) // a key of the dictionary just sorted
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the entity hashes, by entity name.
    public static func checksum(of entityHashes: [String: Data]) -> String {
        var hasher = SHA256()
        for name in entityHashes.keys.sorted() {
            hasher.update(data: entityHashes[name]!) // a key of the dictionary just sorted
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    static func attributeHash(_ attribute: AttributeDescription) -> Data {
        if attribute.isDerived {
            // Core Data hashes a derived attribute by its derivation alone (checked against a store
            // Apple wrote): its name, type and flags do not count.
            let derivation = attribute.derivationExpression.map(DerivationFormat.predicateFormat) ?? ""
            return sha256(Data(derivation.utf8))
        }
        var bytes = propertyBase(name: attribute.name, isOptional: attribute.isOptional,
                                 isTransient: attribute.isTransient,
                                 modifier: attribute.versionHashModifier)
        bytes.appendLittleEndian(attribute.type.versionHashCode)
        if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
        if attribute.preservesValueAfterDeletion { bytes.append(1) }
        return sha256(bytes)
    }

    static func relationshipHash(_ relationship: RelationshipDescription) -> Data {
        var bytes = propertyBase(name: relationship.name, isOptional: relationship.isOptional,
                                 isTransient: relationship.isTransient,
                                 modifier: relationship.versionHashModifier)
        bytes.append(contentsOf: relationship.destinationEntityName.utf8)
        if let inverse = relationship.inverseName { bytes.append(contentsOf: inverse.utf8) }
        // Core Data copies the counts into a C `int`: only their low 32 bits count, so a maximum of
        // `Int.max` (unbounded, as code-built models write it) hashes as 0xFFFFFFFF.
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { bytes.append(contentsOf: [1, 0]) }
        return sha256(bytes)
    }

    private static func entityHash(_ entity: EntityDescription, parentHash: Data?,
                                   attributes: [AttributeDescription],
                                   relationships: [RelationshipDescription]) -> Data {
        var bytes = Data(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parentHash { bytes.append(parentHash) }
        let propertyHashes = attributes.filter { !$0.isTransient }.map { ($0.name, attributeHash($0)) }
            + relationships.filter { !$0.isTransient }.map { ($0.name, relationshipHash($0)) }
        for (_, hash) in propertyHashes.sorted(by: { $0.0 < $1.0 }) { bytes.append(hash) }
        if let modifier = entity.versionHashModifier { bytes.append(contentsOf: modifier.utf8) }
        for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() {
            bytes.append(contentsOf: constraint.utf8)
        }
        return sha256(bytes)
    }

    private static func inheritedProperties(
        of entity: EntityDescription, in byName: [String: EntityDescription]
    ) -> ([AttributeDescription], [RelationshipDescription]) {
        let above = entity.parentName.flatMap { byName[$0] }.map { inheritedProperties(of: $0, in: byName) }
            ?? ([], [])
        return (above.0 + entity.attributes, above.1 + entity.relationships)
    }

    private static func propertyBase(name: String, isOptional: Bool, isTransient: Bool,
                                     modifier: String?) -> Data {
        var bytes = Data(name.utf8)
        var flags: UInt16 = 0
        if isOptional { flags |= optionalFlag }
        if isTransient { flags |= transientFlag }
        bytes.appendLittleEndian(flags)
        if let modifier { bytes.append(contentsOf: modifier.utf8) }
        return sha256(bytes)
    }

    private static func sha256(_ data: Data) -> Data {
        Data(SHA256.hash(data: data))
    }
}

private extension Data {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
