import Foundation

/// The objects of a Core Data XML store, the format of Xcode's `xcmapping.xml`: typed objects with
/// attributes, linked by `idrefs`.
struct XMLStoreDocument {
    struct Object {
        var type: String
        var id: String
        var line: Int
        var attributes: [String: String]
        var attributeTypes: [String: String]
        /// Relationship name -> ids of the objects it points to, in file order.
        var relationships: [String: [String]]
    }

    let objects: [String: Object]
    let fileName: String

    init(root: XMLTreeElement, fileName: String) throws {
        guard root.name == "database" else {
            throw ModelError(file: fileName, line: root.line,
                             reason: .notAnXMLStore(rootElement: root.name))
        }
        var objects: [String: Object] = [:]
        for element in root.children(named: "object") {
            guard let type = element.attributes["type"], let id = element.attributes["id"] else {
                throw ModelError(file: fileName, line: element.line, reason: .objectWithoutTypeOrID)
            }
            var attributes: [String: String] = [:], types: [String: String] = [:]
            for attribute in element.children(named: "attribute") {
                guard let name = attribute.attributes["name"] else { continue }
                attributes[name] = attribute.text
                types[name] = attribute.attributes["type"]
            }
            var relationships: [String: [String]] = [:]
            for relationship in element.children(named: "relationship") {
                guard let name = relationship.attributes["name"] else { continue }
                relationships[name] = (relationship.attributes["idrefs"] ?? "").split(separator: " ").map(String.init)
            }
            objects[id] = Object(type: type, id: id, line: element.line, attributes: attributes,
                                 attributeTypes: types, relationships: relationships)
        }
        self.objects = objects
        self.fileName = fileName
    }

    /// The objects a relationship of `object` points to; a dangling id is an error naming it.
    func related(_ object: Object, _ relationship: String) throws -> [Object] {
        try (object.relationships[relationship] ?? []).map { id in
            guard let target = objects[id] else {
                throw ModelError(file: fileName, line: object.line,
                                 reason: .missingObject(type: object.type, id: object.id, missing: id))
            }
            return target
        }
    }
}
