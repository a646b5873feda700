import Foundation

/// Turns a compiled model (an NSKeyedArchiver archive of an NSManagedObjectModel, as in a `.mom`
/// file or a store's model cache) into a `ManagedObjectModel`.
///
/// Only what stores and version hashes need is read: entities, inheritance, attributes (type,
/// flags, derivation, simple defaults), relationships, uniqueness constraints. Fetched properties,
/// fetch request templates, fetch indexes and configurations are skipped. Every shape is checked:
/// a damaged archive ends in a `ModelError`, never a trap.
struct CompiledModelDecoder {
    typealias Object = [String: PropertyListValue]

    private let archive: KeyedArchive
    private let sourceName: String

    /// - Parameters:
    ///   - name: the version's name (a `.mom` file's name, or a store's name for its cache).
    ///   - sourceName: the file named in errors.
    static func decode(_ data: Data, name: String, sourceName: String) throws -> ManagedObjectModel {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data)
        } catch {
            throw ModelError(file: sourceName, reason: .notACompiledModel(cause: .init(error)))
        }
        return try CompiledModelDecoder(archive: archive, sourceName: sourceName).model(named: name)
    }

    private func model(named name: String) throws -> ManagedObjectModel {
        guard case .dictionary(let root) = archive.root, archive.className(of: root) == "NSManagedObjectModel" else {
            throw ModelError(file: sourceName, reason: .noManagedObjectModel)
        }
        let entities = try entityObjects(root["NSEntities"]).map(entity)
        // Version identifiers are optional and never hashed: an archive without them (or with a
        // form this reader does not know) gives none, and nothing the migration trusts depends on them.
        let identifiers = (try? archive.array(root["NSVersionIdentifiers"]))?.compactMap(archive.text) ?? []
        return try ManagedObjectModel(name: name, versionIdentifier: identifiers.sorted().first ?? "",
                                      entities: entities, sourceName: sourceName)
    }

    /// The model's entities: an NSKnownKeysDictionary (`values`) or a plain NSDictionary.
    private func entityObjects(_ reference: PropertyListValue?) throws -> [Object] {
        guard let reference, case .dictionary(let table) = archive.resolve(reference) else {
            throw ModelError(file: sourceName, reason: .noEntityTable)
        }
        let items = table["NS.objects"] != nil ? try archive.array(reference) : try archive.array(table["values"])
        return try items.map { item in
            guard case .dictionary(let object) = item, archive.className(of: object) == "NSEntityDescription" else {
                throw ModelError(file: sourceName, reason: .damagedEntityTableEntry)
            }
            return object
        }
    }

    private func entity(_ object: Object) throws -> EntityDescription {
        guard let name = string(object["NSEntityName"]) else {
            throw ModelError(file: sourceName, reason: .unnamedEntity)
        }
        let parent = reference(object["NSSuperentity"])
        // A sub-entity's table repeats its parent's properties; its own are the others.
        let inherited = Set(try parent.map { try properties(of: $0, entity: name).map(\.name) } ?? [])
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        for (propertyName, property) in try properties(of: object, entity: name) where !inherited.contains(propertyName) {
            switch archive.className(of: property) {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                attributes.append(try attribute(property, named: propertyName, entity: name))
            case "NSRelationshipDescription":
                relationships.append(try relationship(property, named: propertyName, entity: name))
            default:
                continue // fetched properties and the like store nothing
            }
        }
        return EntityDescription(
            name: name,
            className: string(object["NSClassNameForEntity"]),
            parentName: try parent.map { parentObject in
                guard let parentName = string(parentObject["NSEntityName"]) else {
                    throw ModelError(file: sourceName, entity: name, reason: .unnamedParentEntity)
                }
                return parentName
            },
            isAbstract: flag(object["NSIsAbstract"]),
            renamingIdentifier: renamingIdentifier(object["NSRenamingIdentifier"], name: name),
            versionHashModifier: nonEmpty(object["NSVersionHashModifier"]),
            attributes: attributes,
            relationships: relationships,
            uniquenessConstraints: uniquenessConstraints(object["NSUniqueTuples"]),
            userInfo: stringDictionary(object["NSUserInfo"]))
    }

    /// Name and archived description of every property in the entity's table, by name.
    private func properties(of entity: Object, entity name: String) throws -> [(name: String, object: Object)] {
        guard let table = entity["NSProperties"], case .dictionary(let dictionary) = archive.resolve(table),
              case .array(let keys)? = dictionary["NS.keys"], case .array(let values)? = dictionary["NS.objects"],
              keys.count == values.count else {
            throw ModelError(file: sourceName, entity: name, reason: .noPropertyTable)
        }
        return try zip(keys, values).map { key, value in
            guard let propertyName = archive.text(archive.resolve(key)),
                  case .dictionary(let object) = archive.resolve(value) else {
                throw ModelError(file: sourceName, entity: name, reason: .damagedPropertyEntry)
            }
            return (propertyName, object)
        }.sorted { $0.name < $1.name }
    }

    private func attribute(_ object: Object, named name: String, entity: String) throws -> AttributeDescription {
        let code = integer(object["NSAttributeType"]) ?? -1
        guard let type = AttributeType.allCases.first(where: { Int64($0.versionHashCode) == code }) else {
            let reason: ModelError.Reason = code == Self.compositeTypeCode
                ? .compiledCompositeAttribute
                : .unknownAttributeTypeCode(code)
            throw ModelError(file: sourceName, entity: entity, property: name, reason: reason)
        }
        let flags = integer(object["NSFlagsKey"]) ?? 0
        let isDerived = archive.className(of: object) == "NSDerivedAttributeDescription"
        return AttributeDescription(
            name: name,
            type: type,
            isOptional: flag(object["NSIsOptional"]),
            isTransient: flag(object["NSIsTransient"]),
            defaultValue: defaultValue(object["NSDefaultValue"], type: type),
            valueTransformerName: nonEmpty(object["NSValueTransformerName"]),
            renamingIdentifier: renamingIdentifier(object["NSRenamingIdentifier"], name: name),
            versionHashModifier: nonEmpty(object["NSVersionHashModifier"]),
            allowsExternalBinaryDataStorage: flags & Self.externalStorageFlag != 0,
            preservesValueAfterDeletion: flags & Self.preserveAfterDeletionFlag != 0,
            isIndexed: flag(object["NSIsIndexed"]),
            isDerived: isDerived,
            derivationExpression: isDerived ? try derivation(object["NSDerivationExpression"], of: name, entity: entity) : nil)
    }

    private func relationship(_ object: Object, named name: String, entity: String) throws -> RelationshipDescription {
        guard let destination = reference(object["NSDestinationEntity"]).flatMap({ string($0["NSEntityName"]) })
                ?? string(object["_NSDestinationEntityName"]) else {
            throw ModelError(file: sourceName, entity: entity, property: name, reason: .noDestination)
        }
        let inverse = reference(object["NSInverseRelationship"]).flatMap { string($0["NSPropertyName"]) }
            ?? string(object["_NSInverseRelationshipName"])
        // Core Data reads the counts as C ints into unsigned integers: -1 is NSUIntegerMax, unbounded.
        let maxCount = integer(object["NSMaxCount"]) ?? 0
        let minCount = integer(object["NSMinCount"]) ?? 0
        let rules: [DeleteRule] = [.noAction, .nullify, .cascade, .deny]
        let ruleCode = integer(object["NSDeleteRule"]) ?? 1
        guard minCount >= 0, minCount <= Int64(Int32.max), maxCount <= Int64(Int32.max),
              let rule = rules.indices.contains(Int(clamping: ruleCode)) ? rules[Int(clamping: ruleCode)] : nil else {
            throw ModelError(file: sourceName, entity: entity, property: name,
                             reason: .relationshipOutOfRange(minCount: minCount, maxCount: maxCount, deleteRule: ruleCode))
        }
        return RelationshipDescription(
            name: name,
            destinationEntityName: destination,
            inverseName: inverse,
            isOptional: flag(object["NSIsOptional"]),
            isTransient: flag(object["NSIsTransient"]),
            isToMany: maxCount != 1,
            isOrdered: flag(object["NSIsOrdered"]),
            minCount: Int(minCount),
            maxCount: maxCount < 0 ? Int.max : Int(maxCount),
            deleteRule: rule,
            renamingIdentifier: renamingIdentifier(object["NSRenamingIdentifier"], name: name),
            versionHashModifier: nonEmpty(object["NSVersionHashModifier"]))
    }

    /// The derivation in Core Data's predicate format (`count:(pages)`), which is what it hashes.
    private func derivation(_ reference: PropertyListValue?, of name: String, entity: String) throws -> String? {
        guard let reference, archive.resolve(reference) != .null else { return nil }
        do {
            return DerivationFormat.predicateFormat(of: try archive.expression(reference))
        } catch {
            throw ModelError(file: sourceName, entity: entity, property: name,
                             reason: .unreadableDerivation(cause: .init(error)))
        }
    }

    private func defaultValue(_ reference: PropertyListValue?, type: AttributeType) -> AttributeValue? {
        guard let reference else { return nil }
        switch (archive.resolve(reference), type) {
        case (.integer(let number), _) where type.isInteger: return .integer(number)
        case (.integer(let number), .double), (.integer(let number), .float): return .double(Double(number))
        case (.real(let number), .double), (.real(let number), .float): return .double(number)
        case (.bool(let flag), .boolean): return .bool(flag)
        case (.integer(let number), .boolean): return .bool(number != 0)
        case (.string(let text), .string): return .string(text)
        default: return nil // dates, decimals, data: not needed to inspect or hash a store
        }
    }

    /// Absent constraints are the common case, hence no error. Constraints are hashed, so one
    /// misread here makes the entity's hash differ from `VersionInfo.plist`'s and the model is refused.
    private func uniquenessConstraints(_ reference: PropertyListValue?) -> [[String]] {
        // Models compiled before constraints existed hold no array here: none is what they mean.
        guard let tuples = try? archive.array(reference) else { return [] }
        return tuples.compactMap { tuple in
            (try? archive.array(tuple))?.compactMap { archive.text($0) }
        }
    }

    private func stringDictionary(_ reference: PropertyListValue?) -> [String: String] {
        guard let reference, case .dictionary(let dictionary) = archive.resolve(reference),
              case .array(let keys)? = dictionary["NS.keys"], case .array(let values)? = dictionary["NS.objects"] else {
            return [:]
        }
        var result: [String: String] = [:]
        for (key, value) in zip(keys, values) {
            if let key = archive.text(archive.resolve(key)), let value = archive.text(archive.resolve(value)) {
                result[key] = value
            }
        }
        return result
    }

    private func reference(_ value: PropertyListValue?) -> Object? {
        guard let value, case .dictionary(let object) = archive.resolve(value) else { return nil }
        return object
    }

    private func string(_ value: PropertyListValue?) -> String? {
        guard let value, case .string(let text) = archive.resolve(value) else { return nil }
        return text
    }

    private func nonEmpty(_ value: PropertyListValue?) -> String? {
        string(value).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Core Data archives a property's own name when it has no renaming identifier.
    private func renamingIdentifier(_ value: PropertyListValue?, name: String) -> String? {
        nonEmpty(value).flatMap { $0 == name ? nil : $0 }
    }

    private func flag(_ value: PropertyListValue?) -> Bool {
        switch value.map(archive.resolve) {
        case .bool(let flag)?: flag
        case .integer(let number)?: number != 0
        default: false
        }
    }

    private func integer(_ value: PropertyListValue?) -> Int64? {
        guard let value, case .integer(let number) = archive.resolve(value) else { return nil }
        return number
    }

    /// `NSFlagsKey` bits of an attribute (NSAttributeDescription's coder).
    private static let externalStorageFlag: Int64 = 0x4
    private static let preserveAfterDeletionFlag: Int64 = 0x10
    /// `NSCompositeAttributeType`.
    private static let compositeTypeCode: Int64 = 2100
}
