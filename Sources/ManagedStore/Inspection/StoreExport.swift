import Crypto
import Foundation

/// Writes every object of every entity of a store, with its attributes and relationships (as
/// target entity and primary key), in a stable order: so two stores can be compared with `diff`.
/// Objects are read a batch at a time, so a large store streams.
public struct StoreExport {
    /// The context the store is read through (read-only use).
    public let context: ManagedObjectContext
    /// How dates are written: as text people read (the caller's format), or as the store holds
    /// them, seconds since 2001-01-01 UTC (Core Data's reference date).
    public let dateText: ((Date) -> String)?

    /// An export of the store `context` reads.
    /// - Parameter dateText: writes a date as text (a JSON string); nil writes Core Data's seconds.
    /// - Parameter context: the context the store is read through.
    public init(context: ManagedObjectContext, dateText: ((Date) -> String)? = nil) {
        self.context = context
        self.dateText = dateText
    }

    /// Calls `write` with each line of output (an error it throws ends the export): text, or
    /// JSON (one document, written in pieces: the frame by hand, every object and name through
    /// `JSONEncoder`, so a large store streams).
    public func write(json: Bool, _ write: (String) throws -> Void) throws {
        let model = context.model
        let entities = model.entities.filter { !$0.isAbstract }.map(\.name).sorted()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func encode(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        if json { try write("{\"version\":\(try encode(model.name)),\"entities\":{") }
        for (entityIndex, entity) in entities.enumerated() {
            let objects = try context.fetchBatched(FetchRequest(entityName: entity, fetchBatchSize: 500, includesSubentities: false))
            if json {
                try write("\(entityIndex > 0 ? "," : "")\(try encode(entity)):[")
            } else {
                try write("\(entity) (\(objects.count))")
            }
            for (index, object) in objects.enumerated() {
                try write(json ? (index > 0 ? "," : "") + (try encode(exported(object))) : "  " + textLine(object))
            }
            if let failure = objects.failure { throw failure }
            if json { try write("]") }
        }
        if json { try write("}}") }
    }

    /// One exported property value: JSON's own types, `{"base64": …}` for bytes, references as
    /// `"Entity/pk"` strings.
    enum Value: Encodable {
        case null, integer(Int64), number(Double), bool(Bool), string(String), bytes(Data)
        case reference(String), references([String])

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .integer(let number): try container.encode(number)
            case .number(let number): if number.isFinite { try container.encode(number) } else { try container.encodeNil() }
            case .bool(let flag): try container.encode(flag)
            case .string(let text), .reference(let text): try container.encode(text)
            case .bytes(let data): try container.encode(["base64": data.base64EncodedString()])
            case .references(let list): try container.encode(list)
            }
        }
    }

    /// An object as JSON: its primary key and every stored property by name.
    struct Object: Encodable {
        let pk: Int64
        let properties: [String: Value]

        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(pk, forKey: Key(stringValue: "pk"))
            for (name, value) in properties { try container.encode(value, forKey: Key(stringValue: name)) }
        }
    }

    private func exported(_ object: ManagedObject) -> Object {
        Object(pk: object.objectID.primaryKey ?? 0,
               properties: Dictionary(uniqueKeysWithValues: properties(of: object).map { ($0.name, $0.json) }))
    }

    /// Every stored property of the object, sorted by name: its text and its JSON value (`StoreDiff` compares them).
    /// - Parameter match: entity -> attribute naming its objects across stores (`store diff --match`):
    ///   a related object of such an entity is written `Entity[attribute=value]`, not by primary key.
    func properties(of object: ManagedObject, match: [String: String] = [:]) -> [(name: String, text: String, json: Value)] {
        let model = context.model
        var result: [(name: String, text: String, json: Value)] = []
        for attribute in model.allAttributes(of: object.entity.name).sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
            let value = object.value(forKey: attribute.name)
            result.append((attribute.name, value.map(textValue) ?? "nil", value.map(jsonValue) ?? .null))
        }
        for relationship in model.allRelationships(of: object.entity.name).sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
            let targets = relationship.isToMany ? object.objects(forKey: relationship.name)
                : [object.object(forKey: relationship.name)].compactMap { $0 }
            let ordered = relationship.isOrdered ? targets : targets.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
            var references = ordered.map { target in
                match[target.entity.name].map { attribute in
                    "\(target.entity.name)[\(attribute)=\(target.value(forKey: attribute).map(textValue) ?? "nil")]"
                } ?? "\(target.entity.name)/\(target.objectID.primaryKey ?? 0)"
            }
            // Matched names differ in their keys' order from store to store: sorted by name instead.
            if !relationship.isOrdered, !match.isEmpty { references.sort { $0.compare($1, options: .numeric) == .orderedAscending } }
            let text = relationship.isToMany ? "[" + references.joined(separator: ", ") + "]" : (references.first ?? "nil")
            let json: Value = relationship.isToMany ? .references(references) : (references.first.map(Value.reference) ?? .null)
            result.append((relationship.name, text, json))
        }
        return result
    }

    private func textLine(_ object: ManagedObject) -> String {
        "\(object.entity.name)/\(object.objectID.primaryKey ?? 0) " + properties(of: object).map { "\($0.name)=\($0.text)" }.joined(separator: " ")
    }

    private func textValue(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .data(let bytes): return "<\(bytes.count) bytes sha256:\(Data(SHA256.hash(data: bytes)).hexString.prefix(16))>"
        case .date(let date): return dateText?(date) ?? String(date.timeIntervalSinceReferenceDate)
        default: return value.displayText
        }
    }

    private func jsonValue(_ value: AttributeValue) -> Value {
        switch value {
        case .integer(let number): return .integer(number)
        case .double(let number): return .number(number)
        case .bool(let flag): return .bool(flag)
        case .date(let date): return dateText.map { .string($0(date)) } ?? .number(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): return .bytes(bytes)
        default: return .string(value.displayText)
        }
    }

    /// A string as the text export shows it: quoted and escaped as in JSON, so every value stays on its line.
    private func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        // Encoding a String cannot fail; the fallback keeps the line readable all the same.
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\(text)\""
    }
}
