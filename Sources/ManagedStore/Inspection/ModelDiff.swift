import Foundation

/// What changes between two versions of a model, as `model diff` shows it: every entity and
/// property added, removed, renamed, retyped or made optional or required, which entities'
/// version hashes change (what makes Core Data see another version), and for each change how
/// Core Data would migrate it: by a lightweight rule, or only with a mapping model, and why.
public struct ModelDiff: Encodable {
    /// An entity whose version hash differs between the versions (or exists on one side only).
    public struct HashChange: Encodable, Equatable {
        /// The entity's name.
        public var entity: String
        /// The entity's hash in the source version, as hex; nil when it has no such entity.
        public var from: String?
        /// The entity's hash in the destination version, as hex; nil when it has no such entity.
        public var to: String?
        /// The entity's hash modifier on each side, when it changed (a change of hash on purpose).
        public var hashModifier: [String?]?
    }

    /// The source version's name.
    public var source: String
    /// The destination version's name.
    public var destination: String
    /// Every change, each with how Core Data would migrate it.
    public var changes: [ModelChange]
    /// The entities whose version hash changes.
    public var hashChanges: [HashChange]
    /// Whether Core Data can infer the whole migration (lightweight).
    public var isInferable: Bool { changes.allSatisfy(\.isInferable) }

    /// Compares two versions of a model (with `MappingInference.changes`).
    public init(from source: ManagedObjectModel, to destination: ManagedObjectModel) {
        self.source = source.name
        self.destination = destination.name
        changes = MappingInference.changes(from: source, to: destination)
        let names = Set(source.entityVersionHashes.keys).union(destination.entityVersionHashes.keys).sorted()
        hashChanges = names.compactMap { name in
            let before = source.entityVersionHashes[name], after = destination.entityVersionHashes[name]
            guard before != after else { return nil }
            let modifiers = [source.entity(named: name)?.versionHashModifier, destination.entity(named: name)?.versionHashModifier]
            return HashChange(entity: name, from: before?.hexString, to: after?.hexString,
                              hashModifier: before != nil && after != nil && modifiers[0] != modifiers[1] ? modifiers : nil)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case source, destination, changes, hashChanges, isInferable
    }

    /// Adds `isInferable` to the JSON, which `--json` readers need and which is computed.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(destination, forKey: .destination)
        try container.encode(changes, forKey: .changes)
        try container.encode(hashChanges, forKey: .hashChanges)
        try container.encode(isInferable, forKey: .isInferable)
    }

    /// The diff as lines of text.
    public var lines: [String] {
        var lines = ["\(source) -> \(destination)"]
        if changes.isEmpty && hashChanges.isEmpty { return lines + ["  no differences: the same version to Core Data"] }
        lines.append("changes:")
        lines += changes.map { change in
            "  \(change.isInferable ? "+" : "!") \(change.description): "
                + (change.rule.map { "inferred (\($0))" } ?? "needs a mapping model")
        }
        if changes.isEmpty { lines.append("  none in entities or properties") }
        lines.append("version hashes that change:")
        lines += hashChanges.map { change in
            let what = change.from == nil ? "new" : change.to == nil ? "gone" : "changes"
            let modifier = change.hashModifier.map { " (hash modifier \($0[0] ?? "none") -> \($0[1] ?? "none"))" } ?? ""
            return "  \(change.entity): \(what)\(modifier)"
        }
        if hashChanges.isEmpty { lines.append("  none: a store of one opens with the other without migrating") }
        lines.append(isInferable
            ? "migration: lightweight; Core Data infers it (no mapping model needed)"
            : "migration: needs a mapping model (\(changes.filter { !$0.isInferable }.count) change(s) marked ! cannot be inferred)")
        return lines
    }
}
