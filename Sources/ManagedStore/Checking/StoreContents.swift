import Foundation
internal import GRDB

/// What a store holds, per entity, in a form that survives a migration's renumbering: how many
/// objects of exactly that entity, each attribute's values as a sorted list of fingerprints,
/// and how many links each relationship has. Read-only.
public struct StoreContents: Sendable, Equatable {
    /// The objects of one entity (not counting its sub-entities).
    public struct Entity: Sendable, Equatable {
        /// How many objects.
        public var count: Int
        /// Attribute name -> the values' fingerprints (`nil` for no value), sorted.
        public var values: [String: [String]]
        /// Relationship name -> how many (object, related object) pairs.
        public var links: [String: Int]
        /// Attribute names that must have a value, and the uniqueness constraints, for `problems`.
        var required: [String] = []
        var constraints: [[String]] = []
        /// Each object's values by attribute, for checking constraints.
        var rows: [[String: String]] = []
        /// Integer attribute name -> its type and how many objects hold a value that type cannot
        /// (a narrowing mapping copies values as they are: SQLite keeps them, Core Data's
        /// accessors cut them).
        var outOfRange: [String: OutOfRange] = [:]
    }

    /// Values of one integer attribute that its type cannot hold.
    struct OutOfRange: Sendable, Equatable {
        var type: AttributeType
        var count = 0
    }

    /// Entity name -> its objects.
    public var entities: [String: Entity]

    /// Reads the store at `url`, of `model`, read-only.
    public static func read(storeAt url: URL, model: ManagedObjectModel) throws -> StoreContents {
        var options = StoreOptions()
        options.isReadOnly = true
        let store = try PersistentStore.open(at: url, model: model, options: options)
        // A store opened read-only: closing it loses nothing.
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        var entities: [String: Entity] = [:]
        for entity in model.entities where !entity.isAbstract {
            let attributes = model.allAttributes(of: entity.name).filter { !$0.isTransient }
            let relationships = model.allRelationships(of: entity.name).filter { !$0.isTransient }
            let objects = try context.fetch(FetchRequest(entityName: entity.name, includesSubentities: false))
            var contents = Entity(count: objects.count, values: [:], links: [:],
                                  required: attributes.filter { !$0.isOptional }.map(\.name),
                                  constraints: model.ancestors(of: entity.name).flatMap(\.uniquenessConstraints) + entity.uniquenessConstraints)
            for object in objects {
                var row: [String: String] = [:]
                for attribute in attributes {
                    let value = object.value(forKey: attribute.name)
                    let print = fingerprint(value)
                    contents.values[attribute.name, default: []].append(print)
                    row[attribute.name] = print
                    if case .integer(let number)? = value, let range = range(of: attribute.type), !range.contains(number) {
                        contents.outOfRange[attribute.name, default: OutOfRange(type: attribute.type)].count += 1
                    }
                }
                contents.rows.append(row)
                for relationship in relationships {
                    contents.links[relationship.name, default: 0] += relationship.isToMany
                        ? object.objects(forKey: relationship.name).count : (object.object(forKey: relationship.name) == nil ? 0 : 1)
                }
            }
            for key in contents.values.keys { contents.values[key]?.sort() }
            entities[entity.name] = contents
        }
        return StoreContents(entities: entities)
    }

    /// What breaks the model's rules: a required attribute without a value, two objects sharing
    /// the values of a uniqueness constraint.
    public var problems: [String] {
        var found: [String] = []
        for (name, entity) in entities.sorted(by: { $0.key < $1.key }) {
            for attribute in entity.required {
                let missing = entity.values[attribute]?.filter { $0 == "nil" }.count ?? 0
                if missing > 0 { found.append("\(name).\(attribute) is required, but \(missing) object(s) have no value") }
            }
            for constraint in entity.constraints {
                // Objects without a value for it are not held to it (as SQLite's unique indexes do not).
                let keys = entity.rows.map { row in constraint.map { row[$0] ?? "?" } }.filter { !$0.contains("nil") }
                    .map { $0.joined(separator: "|") }
                if Set(keys).count != keys.count {
                    found.append("\(name): objects share values of the uniqueness constraint (\(constraint.joined(separator: ", ")))")
                }
            }
        }
        return found
    }

    /// Values an integer attribute holds beyond its type's range, one line per attribute.
    public var valuesOutsideTheirTypes: [String] {
        entities.sorted { $0.key < $1.key }.flatMap { name, entity in
            entity.outOfRange.sorted { $0.key < $1.key }.map { attribute, found in
                "\(name).\(attribute) is \(found.type.rawValue), but \(found.count) object(s) hold values outside its range: "
                    + "Core Data reads them cut to \(found.type.rawValue)"
            }
        }
    }

    /// The values an integer type can hold; nil where any stored integer fits.
    private static func range(of type: AttributeType) -> ClosedRange<Int64>? {
        switch type {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        default: nil
        }
    }

    /// `PRAGMA integrity_check` of the store file: "ok", or what SQLite found.
    public static func integrityCheck(storeAt url: URL) throws -> String {
        var configuration = Configuration()
        configuration.readonly = true
        let database = try DatabaseQueue(path: url.path, configuration: configuration)
        // A read-only connection: closing it loses nothing.
        defer { try? database.close() }
        return try database.read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ")
        }
    }

    /// A value's fingerprint: exact (numbers by their bits), short (data by length and hash).
    static func fingerprint(_ value: AttributeValue?) -> String {
        guard let value else { return "nil" }
        switch value {
        case .integer(let number): return "i\(number)"
        case .double(let number): return "d\(number.bitPattern)"
        case .decimal(let number): return "m\(number)"
        case .string(let text): return text.utf8.count > 64 ? "s\(text.utf8.count):\(hash(Data(text.utf8)))" : "s\(text)"
        case .bool(let flag): return flag ? "b1" : "b0"
        case .date(let date): return "t\(date.timeIntervalSinceReferenceDate.bitPattern)"
        case .data(let data): return "x\(data.count):\(hash(data))"
        case .uuid(let uuid): return "u\(uuid.uuidString)"
        case .uri(let url): return "r\(url.absoluteString)"
        }
    }

    /// FNV-1a, 64 bits: enough to tell values apart in a check.
    private static func hash(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
