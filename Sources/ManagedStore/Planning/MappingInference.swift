/// Why a lightweight migration is impossible: names the change that blocks it.
public struct InferenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The changes that cannot be inferred, one line each.
    public var blockingChanges: [String]

    /// One line listing the blocking changes.
    public var description: String {
        "cannot infer a mapping: \(blockingChanges.joined(separator: "; ")); a mapping model is needed"
    }
}

/// A mapping inferred between two model versions, as Core Data's lightweight migration infers it:
/// which destination entity and property comes from which source one, and what changed.
public struct InferredMapping: Sendable {
    /// Destination entity name -> source entity name, for entities that exist on both sides.
    public let entityMatches: [String: String]
    /// Destination entity -> (destination property -> source property), inherited ones included.
    public let propertyMatches: [String: [String: String]]
    /// What changed, one line per change ("added optional attribute Note.image").
    public let changes: [String]
    /// The same mapping as a mapping model, for migrations that copy objects.
    public let mappingModel: MappingModel

    /// The source entity a destination entity comes from.
    public func sourceEntity(for destinationEntity: String) -> String? {
        entityMatches[destinationEntity]
    }
}

/// One difference between two model versions and how Core Data would migrate it: by a
/// lightweight rule (`rule`, named as Apple's lightweight migration names its inferable
/// changes) or not at all without a mapping model (`rule` nil: `description` says why).
public struct ModelChange: Sendable, Equatable, Encodable {
    /// The entity the change is in (destination's name, or source's for a removal).
    public var entity: String
    /// The property the change is in; nil for a change of the entity itself.
    public var property: String?
    /// The change in words ("added optional attribute Note.image").
    public var description: String
    /// The lightweight rule that migrates it; nil when it needs a mapping model.
    public var rule: String?

    /// Whether Core Data itself would infer the change and fail only when a store has objects
    /// without the value (a required attribute without a default): "Validation error missing
    /// attribute values on mandatory destination attribute". This engine refuses it up front.
    public var failsOnlyAtValidationInCoreData = false

    /// Whether lightweight migration handles the change without a mapping model.
    public var isInferable: Bool { rule != nil }
}

/// Infers mappings following Core Data's rules for lightweight migration: entities and
/// properties match by renaming identifier (or name); adding and removing entities and
/// properties, renames, optional <-> required with a default, to-one -> to-many, ordering and
/// hierarchy changes are inferable. Anything else is refused, naming the change.
public enum MappingInference {
    /// Every difference between the versions, inferable or not, in the order inference meets them.
    public static func changes(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> [ModelChange] {
        var inference = Inference(source: source, destination: destination)
        inference.run()
        return inference.records
    }

    /// The lightweight mapping between the versions; throws `InferenceError` naming what blocks it.
    public static func infer(from source: ManagedObjectModel, to destination: ManagedObjectModel) throws -> InferredMapping {
        var inference = Inference(source: source, destination: destination)
        inference.run()
        guard inference.blocking.isEmpty else { throw InferenceError(blockingChanges: inference.blocking) }
        return InferredMapping(entityMatches: inference.entityMatches, propertyMatches: inference.propertyMatches,
                               changes: inference.changes, mappingModel: inference.mappingModel())
    }
}

private struct Inference {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    var entityMatches: [String: String] = [:]
    var propertyMatches: [String: [String: String]] = [:]
    private(set) var records: [ModelChange] = []
    /// What changed and can be inferred, one line per change ("added optional attribute Note.image").
    var changes: [String] { records.filter(\.isInferable).map(\.description) }
    /// What blocks inference.
    var blocking: [String] { records.filter { !$0.isInferable }.map(\.description) }

    init(source: ManagedObjectModel, destination: ManagedObjectModel) {
        self.source = source
        self.destination = destination
    }

    /// The identity that survives renames: the renaming identifier, or else the name.
    private static func identity(_ name: String, _ renamingIdentifier: String?) -> String {
        renamingIdentifier ?? name
    }

    private func sourceEntity(matching entity: EntityDescription) -> EntityDescription? {
        Self.counterpart(of: entity.name, entity.renamingIdentifier, in: source.entities, \.name, \.renamingIdentifier)
    }

    /// The source element a destination element comes from: same identity, or named by it.
    private static func counterpart<Element>(of name: String, _ renamingIdentifier: String?, in candidates: [Element],
                                             _ nameOf: KeyPath<Element, String>,
                                             _ identifierOf: KeyPath<Element, String?>) -> Element? {
        let key = identity(name, renamingIdentifier)
        return candidates.first { identity($0[keyPath: nameOf], $0[keyPath: identifierOf]) == key || $0[keyPath: nameOf] == key }
    }

    /// Notes the source properties no destination property came from.
    private mutating func noteRemoved(_ kind: String, _ names: [String], of sourceEntity: String, destinationEntity: String) {
        let matched = Set(propertyMatches[destinationEntity]?.values.map { $0 } ?? [])
        for name in names where !matched.contains(name) {
            note(destinationEntity, name, "removed \(kind) \(sourceEntity).\(name)", rule: "remove \(kind)")
        }
    }

    private mutating func note(_ entity: String, _ property: String?, _ description: String, rule: String) {
        records.append(ModelChange(entity: entity, property: property, description: description, rule: rule))
    }

    private mutating func block(_ entity: String, _ property: String?, _ description: String, failsOnlyAtValidationInCoreData: Bool = false) {
        records.append(ModelChange(entity: entity, property: property, description: description, rule: nil,
                                   failsOnlyAtValidationInCoreData: failsOnlyAtValidationInCoreData))
    }

    mutating func run() {
        for entity in destination.entities {
            guard let match = sourceEntity(matching: entity) else {
                note(entity.name, nil, "added entity \(entity.name)", rule: "add entity")
                continue
            }
            entityMatches[entity.name] = match.name
            if match.name != entity.name { note(entity.name, nil, "renamed entity \(match.name) to \(entity.name)", rule: "rename entity (renaming identifier)") }
            if match.parentName != entity.parentName {
                note(entity.name, nil, "entity \(entity.name) now has \(entity.parentName.map { "parent \($0)" } ?? "no parent")",
                     rule: "change entity hierarchy")
            }
        }
        for entity in source.entities where !entityMatches.values.contains(entity.name) {
            note(entity.name, nil, "removed entity \(entity.name)", rule: "remove entity")
        }
        for (destinationName, sourceName) in entityMatches.sorted(by: { $0.key < $1.key }) {
            matchAttributes(destinationName, sourceName)
            matchRelationships(destinationName, sourceName)
        }
        findMovedProperties()
    }

    private mutating func matchAttributes(_ destinationEntity: String, _ sourceEntity: String) {
        let sourceAttributes = source.allAttributes(of: sourceEntity).filter { !$0.isTransient }
        for attribute in destination.allAttributes(of: destinationEntity) where !attribute.isTransient {
            let qualified = "\(destinationEntity).\(attribute.name)"
            guard let old = Self.counterpart(of: attribute.name, attribute.renamingIdentifier, in: sourceAttributes, \.name, \.renamingIdentifier) else {
                if attribute.isOptional {
                    note(destinationEntity, attribute.name, "added optional attribute \(qualified)", rule: "add optional attribute")
                } else if let value = attribute.defaultValue {
                    note(destinationEntity, attribute.name, "added attribute \(qualified) with default \(value.displayText)",
                         rule: "add non-optional attribute with a default value")
                } else {
                    block(destinationEntity, attribute.name, "attribute \(qualified) was added as required without a default value",
                          failsOnlyAtValidationInCoreData: true)
                }
                continue
            }
            propertyMatches[destinationEntity, default: [:]][attribute.name] = old.name
            if old.name != attribute.name {
                note(destinationEntity, attribute.name, "renamed attribute \(sourceEntity).\(old.name) to \(qualified)",
                     rule: "rename attribute (renaming identifier)")
            }
            if old.type != attribute.type {
                block(destinationEntity, attribute.name, "attribute \(qualified) changed type from \(old.type.rawValue) to \(attribute.type.rawValue)")
            }
            if old.isOptional && !attribute.isOptional {
                if let value = attribute.defaultValue {
                    note(destinationEntity, attribute.name, "attribute \(qualified) became required (default \(value.displayText))",
                         rule: "make attribute non-optional with a default value")
                } else {
                    block(destinationEntity, attribute.name, "attribute \(qualified) became required without a default value",
                          failsOnlyAtValidationInCoreData: true)
                }
            } else if !old.isOptional && attribute.isOptional {
                note(destinationEntity, attribute.name, "attribute \(qualified) became optional", rule: "make attribute optional")
            }
        }
        noteRemoved("attribute", sourceAttributes.map(\.name), of: sourceEntity, destinationEntity: destinationEntity)
    }

    private mutating func matchRelationships(_ destinationEntity: String, _ sourceEntity: String) {
        let sourceRelationships = source.allRelationships(of: sourceEntity).filter { !$0.isTransient }
        for relationship in destination.allRelationships(of: destinationEntity) where !relationship.isTransient {
            let qualified = "\(destinationEntity).\(relationship.name)"
            guard let old = Self.counterpart(of: relationship.name, relationship.renamingIdentifier, in: sourceRelationships, \.name, \.renamingIdentifier) else {
                if relationship.isOptional || relationship.isToMany {
                    note(destinationEntity, relationship.name, "added relationship \(qualified)", rule: "add relationship")
                } else {
                    block(destinationEntity, relationship.name, "relationship \(qualified) was added as required")
                }
                continue
            }
            propertyMatches[destinationEntity, default: [:]][relationship.name] = old.name
            let name = relationship.name
            if old.name != relationship.name {
                note(destinationEntity, name, "renamed relationship \(sourceEntity).\(old.name) to \(qualified)",
                     rule: "rename relationship (renaming identifier)")
            }
            if entityMatches[relationship.destinationEntityName] != old.destinationEntityName {
                block(destinationEntity, name, "relationship \(qualified) now points to \(relationship.destinationEntityName) instead of \(old.destinationEntityName)")
            }
            if old.isToMany && !relationship.isToMany {
                block(destinationEntity, name, "relationship \(qualified) became to-one")
            } else if !old.isToMany && relationship.isToMany {
                note(destinationEntity, name, "relationship \(qualified) became to-many", rule: "change to-one to to-many")
            }
            if old.isOrdered != relationship.isOrdered {
                note(destinationEntity, name, "relationship \(qualified) became \(relationship.isOrdered ? "ordered" : "unordered")",
                     rule: "change ordering of a to-many relationship")
            }
            if old.isOptional && !relationship.isOptional && !relationship.isToMany {
                block(destinationEntity, name, "relationship \(qualified) became required")
            }
        }
        noteRemoved("relationship", sourceRelationships.map(\.name), of: sourceEntity, destinationEntity: destinationEntity)
    }

    /// A property removed from an entity while a new entity gains one of the same name and
    /// type: the data would be lost, not moved, without a mapping model.
    private mutating func findMovedProperties() {
        let newEntities = destination.entities.filter { entityMatches[$0.name] == nil }
        for (destinationEntity, sourceEntity) in entityMatches.sorted(by: { $0.key < $1.key }) {
            let kept = Set(propertyMatches[destinationEntity]?.values.map { $0 } ?? [])
            for attribute in source.allAttributes(of: sourceEntity) where !attribute.isTransient && !kept.contains(attribute.name) {
                if let target = newEntities.first(where: { entity in
                    entity.attributes.contains { $0.name == attribute.name && $0.type == attribute.type }
                }) {
                    block(target.name, attribute.name, "attribute \(sourceEntity).\(attribute.name) moved to new entity \(target.name)")
                }
            }
        }
    }

    /// Each matched entity copies itself: attributes from `$source`, relationships through the
    /// mapping of their destination entity. Sub-entity rows are migrated by their own mappings.
    func mappingModel() -> MappingModel {
        let manager = ValueExpression.variable("manager")
        let mappings = destination.entities.compactMap { entity -> EntityMapping? in
            guard let sourceName = entityMatches[entity.name] else { return nil }
            let properties = propertyMatches[entity.name] ?? [:]
            let attributes = destination.allAttributes(of: entity.name).filter { !$0.isTransient }.map { attribute in
                PropertyMapping(name: attribute.name, valueExpression: properties[attribute.name].map { ValueExpression.source($0) })
            }
            let relationships = destination.allRelationships(of: entity.name).filter { !$0.isTransient }.map { relationship in
                PropertyMapping(name: relationship.name, valueExpression: properties[relationship.name].map { old in
                    .function(target: manager, selector: MigrationSelectors.destinationInstancesForRelationship,
                              arguments: [.constant(.string(old)), .source(old)])
                })
            }
            return EntityMapping(name: "\(sourceName)To\(entity.name)", sourceEntityName: sourceName, destinationEntityName: entity.name,
                                 attributeMappings: attributes,
                                 relationshipMappings: relationships)
        }
        return MappingModel(name: "Inferred\(source.name)To\(destination.name)", entityMappings: mappings,
                            sourceEntityHashes: source.entityVersionHashes,
                            destinationEntityHashes: destination.entityVersionHashes)
    }
}
