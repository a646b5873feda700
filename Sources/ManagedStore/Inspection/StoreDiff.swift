import Foundation

/// Two stores' objects compared entity by entity, as `store diff` shows them: objects matched by
/// primary key, or by a key attribute per entity (`--match Note.title`), then the objects only in
/// the second (added), only in the first (removed), and the properties whose values differ. Values
/// are compared as `store export` writes them (dates through `dateText`), so a store before and
/// after a migration shows exactly what the migration changed. Each entity is read a batch at a time.
public struct StoreDiff: Encodable {
    /// What differs in one entity.
    public struct EntityDiff: Encodable {
        /// Objects only in the second store.
        public var added: [Object] = []
        /// Objects only in the first store.
        public var removed: [Object] = []
        /// Objects in both whose values differ.
        public var changed: [Change] = []
        /// Whether the entity is the same in both stores.
        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    /// An object in one store only, with its values.
    public struct Object: Encodable {
        /// The object's key: `Entity/pk`, or `Entity[attribute=value]`.
        public var object: String
        /// Property -> value, as `store export` writes it.
        public var values: [String: String]
    }

    /// One object in both stores whose values differ.
    public struct Change: Encodable {
        /// The object's key: `Entity/pk`, or `Entity[attribute=value]`.
        public var object: String
        /// Property -> [value in the first store, value in the second]; nil where it has none.
        public var values: [String: [String?]]
    }

    /// Entity name -> what differs; entities that are the same in both stores are left out.
    public private(set) var entities: [String: EntityDiff] = [:]

    /// Compares the objects of two stores, entity by entity.
    /// - Parameter match: entity -> attribute that identifies its objects across the stores.
    /// Throws `StoreDiffError.unknownKey` for a `match` entry neither store's model has.
    /// - Parameter first: the store before (its objects only there are "removed").
    /// - Parameter second: the store after (its objects only there are "added").
    /// - Parameter dateText: writes a date as text; nil compares Core Data's seconds.
    public init(_ first: ManagedObjectContext, _ second: ManagedObjectContext, match: [String: String] = [:],
                dateText: ((Date) -> String)? = nil) throws {
        for (entity, attribute) in match.sorted(by: { $0.key < $1.key }) {
            let known = [first.model, second.model].contains { model in
                model.allAttributes(of: entity).contains { $0.name == attribute }
            }
            guard known else { throw StoreDiffError.unknownKey(entity: entity, attribute: attribute) }
        }
        let names = Set(first.model.entities.filter { !$0.isAbstract }.map(\.name))
            .union(second.model.entities.filter { !$0.isAbstract }.map(\.name)).sorted()
        for name in names {
            let before = try Self.objects(of: name, in: first, match: match, dateText: dateText)
            let after = try Self.objects(of: name, in: second, match: match, dateText: dateText)
            var diff = EntityDiff()
            diff.removed = before.filter { after[$0.key] == nil }.sorted { Self.inOrder($0.key, $1.key) }.map { Object(object: $0.key, values: $0.value) }
            diff.added = after.filter { before[$0.key] == nil }.sorted { Self.inOrder($0.key, $1.key) }.map { Object(object: $0.key, values: $0.value) }
            for key in before.keys.sorted(by: Self.inOrder) {
                guard let old = before[key], let new = after[key] else { continue }
                let differing = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
                if !differing.isEmpty {
                    diff.changed.append(Change(object: key, values: Dictionary(uniqueKeysWithValues: differing.map { ($0, [old[$0], new[$0]]) })))
                }
            }
            if !diff.isEmpty { entities[name] = diff }
        }
    }

    /// The entity's objects (without subentities) by key: `Entity/pk`, or `Entity[attribute=value]`;
    /// related objects are named the same way, so a match by title does not see every tag change.
    private static func objects(of entity: String, in context: ManagedObjectContext, match: [String: String],
                                dateText: ((Date) -> String)?) throws -> [String: [String: String]] {
        let attribute = match[entity]
        guard context.model.entity(named: entity) != nil else { return [:] }
        let export = StoreExport(context: context, dateText: dateText)
        let objects = try context.fetchBatched(FetchRequest(entityName: entity, fetchBatchSize: 500, includesSubentities: false))
        var result: [String: [String: String]] = [:]
        var seen: [String: Int] = [:]
        for object in objects {
            let properties = Dictionary(export.properties(of: object, match: match).map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
            var key = attribute.map { "\(entity)[\($0)=\(properties[$0] ?? "nil")]" } ?? "\(entity)/\(object.objectID.primaryKey ?? 0)"
            // Objects sharing a key attribute's value are told apart by their order in the store.
            seen[key, default: 0] += 1
            if let count = seen[key], count > 1 { key += " #\(count)" }
            result[key] = properties
        }
        if let failure = objects.failure { throw failure }
        return result
    }

    /// Objects in the order of their keys' numbers (Note/2 before Note/10).
    private static func inOrder(_ first: String, _ second: String) -> Bool {
        first.compare(second, options: .numeric) == .orderedAscending
    }

    private static func line(_ object: Object) -> String {
        ([object.object] + object.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }

    /// The diff as lines of text: per entity, added (+), removed (-) and changed (~) objects.
    public var lines: [String] {
        guard !entities.isEmpty else { return ["no differences"] }
        return entities.sorted { $0.key < $1.key }.flatMap { name, diff -> [String] in
            ["\(name): \(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed"]
                + diff.added.map { "  + \(Self.line($0))" } + diff.removed.map { "  - \(Self.line($0))" }
                + diff.changed.flatMap { change in
                    ["  ~ \(change.object)"] + change.values.sorted { $0.key < $1.key }.map { property, values in
                        "      \(property): \(values[0] ?? "(absent)") -> \(values[1] ?? "(absent)")"
                    }
                }
        }
    }
}

/// Why two stores cannot be compared as asked.
public enum StoreDiffError: Error, CustomStringConvertible {
    /// `--match Entity.attribute` names an attribute neither store's model has.
    case unknownKey(entity: String, attribute: String)

    /// The reason as a line for the command line.
    public var description: String {
        switch self {
        case .unknownKey(let entity, let attribute):
            "neither store's model has an attribute \(entity).\(attribute) to match objects by"
        }
    }
}
