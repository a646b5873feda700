import Foundation

/// For a store whose hashes match no version of the model: the version that comes closest (the
/// most entities with equal hashes, the later one on a tie), and how the store differs from it,
/// entity by entity. Where the store holds Core Data's cached model (`Z_MODELCACHE`), each
/// entity's differences are named property by property (as `model diff` names them).
public struct ClosestVersion: Codable, Sendable {
    /// How the store differs from the closest version in one entity.
    public struct Difference: Codable, Sendable {
        /// The entity's name.
        public var entity: String
        /// The entity's hash in the store, nil when the store has no such entity.
        public var storeHash: String?
        /// The entity's hash in the closest version, nil when that version has no such entity.
        public var versionHash: String?
        /// What differs, from the closest version to the store's cached model; nil without a cache.
        public var changes: [String]?
    }

    /// The name of the closest version.
    public var version: String
    /// How many entities have the same hash in the store and in that version.
    public var matchingEntities: Int
    /// How many entities the store and that version name between them.
    public var entities: Int
    /// The entities whose hashes differ, sorted by name.
    public var differences: [Difference]

    /// Nil when the model has no versions.
    public init?(store metadata: StoreMetadata, model: VersionedModel, cachedModel: ManagedObjectModel?) {
        let hashes = metadata.versionHashes
        func matches(_ version: ManagedObjectModel) -> Int {
            version.entityVersionHashes.filter { hashes[$0.key] == $0.value }.count
        }
        guard let closest = model.versions.enumerated().max(by: { (matches($0.element), $0.offset) < (matches($1.element), $1.offset) })?.element
        else { return nil }
        version = closest.name
        matchingEntities = matches(closest)
        entities = Set(hashes.keys).union(closest.entityVersionHashes.keys).count
        let changes = cachedModel.map { ModelDiff(from: closest, to: $0).changes }
        differences = Set(hashes.keys).union(closest.entityVersionHashes.keys).sorted().compactMap { name in
            let inStore = hashes[name], inVersion = closest.entityVersionHashes[name]
            guard inStore != inVersion else { return nil }
            return Difference(entity: name, storeHash: inStore?.hexString, versionHash: inVersion?.hexString,
                              changes: changes?.filter { $0.entity == name }.map(\.description))
        }
    }

    /// Lines for `store info`.
    public var lines: [String] {
        let heading = matchingEntities == 0
            ? "closest version: none shares an entity hash with the store; compared with \(version), the store differs in:"
            : "closest version: \(version) (\(matchingEntities) of \(entities) entities with the same hash); the store differs in:"
        return [heading] + differences.map { difference in
            let what = difference.storeHash == nil ? "not in the store" : difference.versionHash == nil ? "not in \(version)" : "another hash"
            let changes = difference.changes.map {
                $0.isEmpty ? ": no entity or property differs; something else hashed does (a hash modifier, a derivation, a relationship's counts)"
                    : ": " + $0.joined(separator: "; ")
            } ?? ""
            return "  \(difference.entity) (\(what))\(changes)"
        }
    }
}
