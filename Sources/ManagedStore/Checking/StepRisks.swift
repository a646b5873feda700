/// The data-loss and crash risks of one step of the chain, from the two versions and how the
/// step migrates (a mapping model may take care of what inference cannot).
enum StepRisks {
    static func findings(of link: MigrationChain.Link, named location: String) -> [CheckFinding] {
        var found: [CheckFinding] = []
        let mapping: MappingModel?
        switch link.step {
        case .success(let step):
            if case .mappingModel(let model) = step.kind { mapping = model } else { mapping = nil }
        case .failure(let error):
            mapping = nil
            found.append(CheckFinding(.error, .chainGap, at: location,
                                      "no mapping model and no inferable mapping: \(error.description); a store of "
                                        + "\(link.source.name) cannot be migrated"))
        }
        let source = link.source, destination = link.destination
        if let mapping {
            for name in unreadEntities(by: mapping, from: source, to: destination) {
                found.append(CheckFinding(.warning, .entityUnmapped, at: location,
                                          "no entity mapping of \(mapping.name) reads \(name) objects (a mapping reads its entity exactly, "
                                            + "not its sub-entities): Core Data drops them without a word; this engine refuses a store "
                                            + "that has any"))
            }
        }
        for change in link.diff.changes {
            switch change.rule {
            case "remove entity"?:
                if let mapping, mapping.entityMappings.contains(where: { $0.sourceEntityName == change.entity }) { continue }
                found.append(CheckFinding(.warning, .entityRemoved, at: location,
                                          "entity \(change.entity) is removed: every \(change.entity) object in a store is deleted"))
            case "remove attribute"?:
                guard let property = change.property else { continue }
                if let mapping, mapping.reads(property) { continue }
                found.append(CheckFinding(.warning, .attributeRemoved, at: location,
                                          "\(change.description): its values are dropped by the migration"))
            default: break
            }
        }
        for entity in destination.entities {
            let old = Counterparts.entity(matching: entity, in: source)
            for attribute in destination.allAttributes(of: entity.name) where !attribute.isTransient {
                let qualified = "\(entity.name).\(attribute.name)"
                let before = old.flatMap { Counterparts.attribute(matching: attribute, in: source.allAttributes(of: $0.name)) }
                let becameRequired = !attribute.isOptional && attribute.defaultValue == nil && (before.map(\.isOptional) ?? (old != nil))
                if becameRequired {
                    let entityMapping = mapping?.entityMappings.first { $0.destinationEntityName == entity.name }
                    // A mapping model without a mapping to the entity makes no such objects.
                    let given = (mapping != nil && entityMapping == nil) || entityMapping?.policyClassName != nil
                        || entityMapping?.attributeMappings.first { $0.name == attribute.name }?.valueExpression != nil
                    if !given {
                        found.append(CheckFinding(.error, .requiredWithoutDefault, at: location,
                                                  requiredWithoutDefault(qualified, of: entity.name, isNew: before == nil, mapped: mapping != nil)))
                    }
                }
                if let before, before.type != attribute.type {
                    let narrowed = TypeNarrowing.isNarrowing(from: before.type, to: attribute.type)
                    let change = "\(qualified) changes type from \(before.type.rawValue) to \(attribute.type.rawValue)"
                    if mapping == nil {
                        found.append(CheckFinding(.error, narrowed ? .narrowedType : .typeChanged, at: location,
                                                  "\(change): lightweight migration cannot change a type; a mapping model is needed"))
                    } else if narrowed {
                        found.append(CheckFinding(.warning, .narrowedType, at: location,
                                                  "\(change): values that do not fit the new type are lost or fail the migration"))
                    }
                }
                if let rid = attribute.renamingIdentifier, rid != attribute.name, let old,
                   !source.allAttributes(of: old.name).contains(where: { $0.name == rid || ($0.renamingIdentifier ?? $0.name) == rid }) {
                    found.append(dangling("attribute \(qualified)", rid, location, source))
                }
            }
            for relationship in destination.allRelationships(of: entity.name) where !relationship.isTransient {
                if let rid = relationship.renamingIdentifier, rid != relationship.name, let old,
                   !source.allRelationships(of: old.name).contains(where: { $0.name == rid || ($0.renamingIdentifier ?? $0.name) == rid }) {
                    found.append(dangling("relationship \(entity.name).\(relationship.name)", rid, location, source))
                }
            }
            if let rid = entity.renamingIdentifier, rid != entity.name, old == nil {
                found.append(dangling("entity \(entity.name)", rid, location, source))
            }
            if let old {
                // Over values the objects had already: a constraint over an attribute new in this
                // version is filled by the migration itself, which the trial migrations check.
                let before = Set(old.uniquenessConstraints.map { $0.sorted() })
                let existing = Set(source.allAttributes(of: old.name).map(\.name) + source.allRelationships(of: old.name).map(\.name))
                for constraint in entity.uniquenessConstraints where !before.contains(constraint.sorted())
                    && constraint.allSatisfy(existing.contains) {
                    found.append(CheckFinding(.warning, .uniquenessConstraintAdded, at: location,
                                              "uniqueness constraint (\(constraint.joined(separator: ", "))) added to \(entity.name): "
                                                + "a store whose \(entity.name) objects already share such values fails to migrate"))
                }
            }
        }
        return found
    }

    /// Why a required attribute without a default breaks the step: what Core Data does with it
    /// (an inferred mapping fails validation store by store), or that the mapping model gives no value.
    private static func requiredWithoutDefault(_ qualified: String, of entity: String, isNew: Bool, mapped: Bool) -> String {
        let change = "\(qualified) is \(isNew ? "added as" : "made") required without a default value"
        if mapped { return "\(change): the mapping model gives it no value, so every migrated \(entity) fails validation" }
        let stores = isNew ? "a store with \(entity) objects" : "a store with \(entity) objects lacking the value"
        return "\(change): Core Data infers a mapping, but the migration of \(stores) stops with \"Validation error missing "
            + "attribute values on mandatory destination attribute\"; this program refuses the step"
    }

    /// The concrete entities of `source`, still in `destination`, whose objects no entity mapping reads.
    static func unreadEntities(by mapping: MappingModel, from source: ManagedObjectModel, to destination: ManagedObjectModel) -> [String] {
        let read = Set(mapping.entityMappings.compactMap(\.sourceEntityName))
        return source.entities.filter { !$0.isAbstract && !read.contains($0.name) && destination.entity(named: $0.name) != nil }.map(\.name)
    }

    private static func dangling(_ what: String, _ identifier: String, _ location: String, _ source: ManagedObjectModel) -> CheckFinding {
        CheckFinding(.warning, .danglingRenamingIdentifier, at: location,
                     "\(what) has renaming identifier \"\(identifier)\", which names nothing in \(source.name): "
                        + "it is migrated as new, and the values of what it was meant to rename are dropped")
    }
}

/// Matching by identity, as lightweight migration matches: the renaming identifier, or else the name.
enum Counterparts {
    static func entity(matching entity: EntityDescription, in model: ManagedObjectModel) -> EntityDescription? {
        let key = entity.renamingIdentifier ?? entity.name
        return model.entities.first { ($0.renamingIdentifier ?? $0.name) == key || $0.name == key }
    }

    static func attribute(matching attribute: AttributeDescription, in candidates: [AttributeDescription]) -> AttributeDescription? {
        let key = attribute.renamingIdentifier ?? attribute.name
        return candidates.first { ($0.renamingIdentifier ?? $0.name) == key || $0.name == key }
    }
}

/// Which type changes lose values: the new type cannot hold every value of the old one.
public enum TypeNarrowing {
    /// Whether some values of `old` cannot be kept in `new`.
    public static func isNarrowing(from old: AttributeType, to new: AttributeType) -> Bool {
        if old == new { return false }
        let bits: [AttributeType: Int] = [.boolean: 1, .integer16: 16, .integer32: 32, .integer64: 64]
        switch (old, new) {
        case (_, .string): return [.binary, .transformable].contains(old)
        case (_, .transformable), (_, .binary): return false
        case (.boolean, _) where new.isInteger: return false
        case _ where bits[old] != nil && bits[new] != nil: return bits[new, default: 0] < bits[old, default: 0]
        case (.integer16, .float), (.integer16, .double), (.integer32, .double): return false
        case (.float, .double), (.float, .decimal), (.double, .decimal), (.integer16, .decimal), (.integer32, .decimal),
             (.integer64, .decimal): return false
        default: return true
        }
    }
}

extension MappingModel {
    /// Whether any expression of the mapping model reads `key` of its source objects (a property
    /// removed from an entity but moved elsewhere by the mapping is not lost).
    func reads(_ key: String) -> Bool {
        entityMappings.contains { mapping in
            (mapping.attributeMappings + mapping.relationshipMappings).contains { $0.valueExpression?.mentions(key) == true }
                || mapping.policyClassName != nil
        }
    }
}

extension ValueExpression {
    /// Whether a key path in the expression has `key` as a component.
    func mentions(_ key: String) -> Bool {
        switch self {
        case .constant, .variable: false
        case .keyPath(let base, let components): components.contains(key) || base?.mentions(key) == true
        case .function(let target, _, let arguments): target.mentions(key) || arguments.contains { $0.mentions(key) }
        case .aggregate(let items): items.contains { $0.mentions(key) }
        }
    }
}
