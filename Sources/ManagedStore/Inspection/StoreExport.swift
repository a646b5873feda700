import Crypto
import Foundation

/// Writes every object of every entity of a store, with its attributes and relationships (as
/// target entity and primary key), in a stable order: so two stores can be compared with `diff`.
/// Objects are read a batch at a time, so a large store streams.
public struct StoreExport {
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    /// Calls `write` with each line of output: text, or JSON (one document, written in pieces).
    public func write(json: Bool, _ write: (String) -> Void) throws {
        let model = context.model
        let entities = model.entities.filter { !$0.isAbstract }.map(\.name).sorted()
        if json { write("{\"version\":\(jsonString(model.name)),\"entities\":{") }
        for (entityIndex, entity) in entities.enumerated() {
            let objects = try context.fetchBatched(FetchRequest(entityName: entity, fetchBatchSize: 500, includesSubentities: false))
            if json {
                write("\(entityIndex > 0 ? "," : "")\(jsonString(entity)):[")
            } else {
                write("\(entity) (\(objects.count))")
            }
            for (index, object) in objects.enumerated() {
                write(json ? (index > 0 ? "," : "") + jsonObject(object) : "  " + textLine(object))
            }
            if let failure = objects.failure { throw failure }
            if json { write("]") }
        }
        if json { write("}}") }
    }

    private func properties(of object: ManagedObject) -> [(String, String, String)] {
        let model = context.model
        var result: [(String, String, String)] = []
        for attribute in model.allAttributes(of: object.entity.name).sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
            let value = object.value(forKey: attribute.name)
            result.append((attribute.name, value.map(textValue) ?? "nil", value.map(jsonValue) ?? "null"))
        }
        for relationship in model.allRelationships(of: object.entity.name).sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
            let targets = relationship.isToMany ? object.objects(forKey: relationship.name)
                : [object.object(forKey: relationship.name)].compactMap { $0 }
            let ordered = relationship.isOrdered ? targets : targets.sorted { ($0.objectID.primaryKey ?? 0) < ($1.objectID.primaryKey ?? 0) }
            let references = ordered.map { "\($0.entity.name)/\($0.objectID.primaryKey ?? 0)" }
            let text = relationship.isToMany ? "[" + references.joined(separator: ", ") + "]" : (references.first ?? "nil")
            let json = relationship.isToMany ? "[" + references.map(jsonString).joined(separator: ",") + "]" : (references.first.map(jsonString) ?? "null")
            result.append((relationship.name, text, json))
        }
        return result
    }

    private func textLine(_ object: ManagedObject) -> String {
        "\(object.entity.name)/\(object.objectID.primaryKey ?? 0) " + properties(of: object).map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    private func jsonObject(_ object: ManagedObject) -> String {
        let fields = [("\"pk\"", String(object.objectID.primaryKey ?? 0))] + properties(of: object).map { (jsonString($0.0), $0.2) }
        return "{" + fields.map { "\($0.0):\($0.1)" }.joined(separator: ",") + "}"
    }

    private func textValue(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): return jsonString(text)
        case .data(let bytes): return "<\(bytes.count) bytes sha256:\(Data(SHA256.hash(data: bytes)).hexString.prefix(16))>"
        case .date(let date): return String(date.timeIntervalSinceReferenceDate)
        default: return value.displayText
        }
    }

    private func jsonValue(_ value: AttributeValue) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .double(let number): return number.isFinite ? String(number) : "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return String(date.timeIntervalSinceReferenceDate)
        case .data(let bytes): return "{\"base64\":\"\(bytes.base64EncodedString())\"}"
        default: return jsonString(value.displayText)
        }
    }

    private func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
