import Foundation

/// Turns the XML tree of an Xcode `.xcdatamodel/contents` file into a `ManagedObjectModel`.
///
/// Elements that carry no storage or behaviour (diagram `<elements>`, fetched properties, fetch
/// requests, configurations (only their names are checked), anything newer Xcodes add) are skipped, so a model saved by a newer
/// Xcode still loads.
struct ModelXMLDecoder {
    let fileName: String

    func decodeModel(_ root: XMLTreeElement, versionName: String) throws -> ManagedObjectModel {
        guard root.name == "model" else {
            throw ModelError(file: fileName, line: root.line,
                             reason: .notAModelDocument(rootElement: root.name))
        }
        try checkConfigurationNames(root)
        let entities = try root.children(named: "entity").map(decodeEntity)
        return try ManagedObjectModel(
            name: versionName,
            versionIdentifier: root.attributes["userDefinedModelVersionIdentifier"] ?? "",
            entities: entities,
            sourceName: fileName)
    }

    /// Configurations are not used, but their names are checked as Xcode checks them, so a file
    /// that no Xcode wrote is refused whole rather than half-read.
    private func checkConfigurationNames(_ root: XMLTreeElement) throws {
        for configuration in root.children(named: "configuration") {
            try check(configuration.attributes["name"] ?? "", as: .configuration, at: configuration, entity: nil)
        }
    }

    /// The name checked where the file holds it, so the error names the line too (the model's
    /// own check, `ModelValidator`, covers compiled models, which have no lines).
    private func check(_ name: String, as rule: ModelNameRule, at element: XMLTreeElement, entity: String?) throws {
        if let refusal = rule.refusal(of: name) {
            throw ModelError(file: fileName, line: element.line, entity: entity, reason: refusal, invalidName: name)
        }
    }

    private func decodeEntity(_ element: XMLTreeElement) throws -> EntityDescription {
        let name = try required("name", of: element, entity: nil)
        try check(name, as: .entity, at: element, entity: nil)
        var seenAttributes: [AttributeDescription] = []
        var seenRelationships: [RelationshipDescription] = []
        for child in element.children {
            switch child.name {
            case "attribute": seenAttributes.append(try decodeAttribute(child, entity: name))
            case "relationship": seenRelationships.append(try decodeRelationship(child, entity: name))
            default: continue
            }
        }
        return EntityDescription(
            name: name,
            className: element.attributes["representedClassName"],
            parentName: element.attributes["parentEntity"],
            isAbstract: try flag("isAbstract", of: element, entity: name),
            renamingIdentifier: element.attributes["elementID"],
            versionHashModifier: element.attributes["versionHashModifier"],
            attributes: seenAttributes,
            relationships: seenRelationships,
            uniquenessConstraints: try decodeUniquenessConstraints(element, entity: name),
            fetchIndexes: try element.children(named: "fetchIndex").map { try decodeFetchIndex($0, entity: name) },
            userInfo: decodeUserInfo(element))
    }

    private func decodeAttribute(_ element: XMLTreeElement, entity: String) throws -> AttributeDescription {
        let name = try required("name", of: element, entity: entity)
        try check(name, as: .property, at: element, entity: entity)
        let typeName = try required("attributeType", of: element, entity: entity, property: name)
        if typeName == "Composite" {
            throw ModelError(file: fileName, line: element.line, entity: entity, property: name,
                             reason: .compositeAttribute)
        }
        guard let type = AttributeType(xcodeName: typeName) else {
            throw ModelError(file: fileName, line: element.line, entity: entity, property: name,
                             reason: .unknownAttributeType(typeName))
        }
        let defaults = DefaultValueParser(fileName: fileName, line: element.line, entity: entity, property: name)
        return AttributeDescription(
            name: name,
            type: type,
            isOptional: try flag("optional", of: element, entity: entity, property: name),
            isTransient: try flag("transient", of: element, entity: entity, property: name),
            defaultValue: try defaults.parse(type: type,
                                             string: element.attributes["defaultValueString"],
                                             dateInterval: element.attributes["defaultDateTimeInterval"]),
            valueTransformerName: element.attributes["valueTransformerName"],
            customClassName: element.attributes["customClassName"],
            renamingIdentifier: element.attributes["elementID"],
            versionHashModifier: element.attributes["versionHashModifier"],
            allowsExternalBinaryDataStorage: try flag("allowsExternalBinaryDataStorage", of: element,
                                                      entity: entity, property: name),
            preservesValueAfterDeletion: try flag("preserveAfterDeletion", of: element,
                                                  entity: entity, property: name),
            isIndexed: try flag("indexed", of: element, entity: entity, property: name),
            minValue: element.attributes["minValueString"],
            maxValue: element.attributes["maxValueString"],
            isDerived: try flag("derived", of: element, entity: entity, property: name),
            derivationExpression: element.attributes["derivationExpression"],
            userInfo: decodeUserInfo(element))
    }

    private func decodeRelationship(_ element: XMLTreeElement,
                                    entity: String) throws -> RelationshipDescription {
        let name = try required("name", of: element, entity: entity)
        try check(name, as: .property, at: element, entity: entity)
        let destination = try required("destinationEntity", of: element, entity: entity, property: name)
        let ruleName = element.attributes["deletionRule"] ?? DeleteRule.nullify.rawValue
        guard let rule = DeleteRule(rawValue: ruleName) else {
            throw ModelError(file: fileName, line: element.line, entity: entity, property: name,
                             reason: .unknownDeleteRule(ruleName))
        }
        return RelationshipDescription(
            name: name,
            destinationEntityName: destination,
            inverseName: element.attributes["inverseName"],
            isOptional: try flag("optional", of: element, entity: entity, property: name),
            isTransient: try flag("transient", of: element, entity: entity, property: name),
            isToMany: try flag("toMany", of: element, entity: entity, property: name),
            isOrdered: try flag("ordered", of: element, entity: entity, property: name),
            minCount: try count("minCount", of: element, entity: entity, property: name) ?? 0,
            maxCount: try count("maxCount", of: element, entity: entity, property: name),
            deleteRule: rule,
            renamingIdentifier: element.attributes["elementID"],
            versionHashModifier: element.attributes["versionHashModifier"],
            userInfo: decodeUserInfo(element))
    }

    private func decodeUniquenessConstraints(_ element: XMLTreeElement, entity: String) throws -> [[String]] {
        try element.children(named: "uniquenessConstraints")
            .flatMap { $0.children(named: "uniquenessConstraint") }
            .map { constraint in
                try constraint.children(named: "constraint").map {
                    try required("value", of: $0, entity: entity)
                }
            }
    }

    private func decodeFetchIndex(_ element: XMLTreeElement, entity: String) throws -> FetchIndexDescription {
        let name = try required("name", of: element, entity: entity)
        try check(name, as: .fetchIndex, at: element, entity: entity)
        let elements = try element.children(named: "fetchIndexElement").map {
            FetchIndexDescription.Element(property: try required("property", of: $0, entity: entity),
                                          isAscending: $0.attributes["order"] != "descending")
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    private func decodeUserInfo(_ element: XMLTreeElement) -> [String: String] {
        let entries = element.children(named: "userInfo").flatMap { $0.children(named: "entry") }
        return Dictionary(entries.compactMap { entry in
            entry.attributes["key"].map { ($0, entry.attributes["value"] ?? "") }
        }, uniquingKeysWith: { _, last in last })
    }

    private func required(_ key: String, of element: XMLTreeElement, entity: String?,
                          property: String? = nil) throws -> String {
        guard let value = element.attributes[key], !value.isEmpty else {
            throw ModelError(file: fileName, line: element.line, entity: entity, property: property,
                             reason: .missingAttribute(element: element.name, key: key))
        }
        return value
    }

    /// Xcode writes booleans as `YES`/`NO` and leaves out the ones that are NO.
    private func flag(_ key: String, of element: XMLTreeElement, entity: String,
                      property: String? = nil) throws -> Bool {
        switch element.attributes[key] {
        case nil, "NO", "false": return false
        case "YES", "true": return true
        case let other?:
            throw ModelError(file: fileName, line: element.line, entity: entity, property: property,
                             reason: .notAFlag(key: key, value: other))
        }
    }

    private func count(_ key: String, of element: XMLTreeElement, entity: String,
                       property: String) throws -> Int? {
        guard let text = element.attributes[key] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw ModelError(file: fileName, line: element.line, entity: entity, property: property,
                             reason: .notACount(key: key, value: text))
        }
        return value
    }
}
