/// Checks that a set of entities forms a consistent model, so that nothing built on a loaded model
/// meets a dangling name, a cycle or an ambiguous property.
struct ModelValidator {
    /// Real models inherit a few levels deep; the bound keeps hashing's walk up the parents short.
    static let maximumInheritanceDepth = 64

    let entities: [EntityDescription]
    let sourceName: String

    func validate() throws {
        for entity in entities {
            try checkNames(of: entity)
        }
        let byName = try entitiesByUniqueName()
        for entity in entities {
            try checkParent(of: entity, in: byName)
        }
        for entity in entities {
            let lineage = lineage(of: entity, in: byName)
            try checkUniquePropertyNames(of: entity, lineage: lineage)
            let properties = Set(lineage.flatMap(\.ownPropertyNames))
            try checkRelationships(of: entity, in: byName)
            try checkConstraintsAndIndexes(of: entity, properties: properties)
        }
    }

    private func error(_ entity: String?, _ property: String? = nil, _ reason: ModelError.Reason) -> ModelError {
        ModelError(file: sourceName, entity: entity, property: property, reason: reason)
    }

    /// Names first: every later check, and all SQL, may then rely on them being plain identifiers.
    private func checkNames(of entity: EntityDescription) throws {
        if let refusal = ModelNameRule.entity.refusal(of: entity.name) {
            throw ModelError(file: sourceName, reason: refusal, invalidName: entity.name)
        }
        for name in entity.ownPropertyNames {
            if let refusal = ModelNameRule.property.refusal(of: name) {
                throw ModelError(file: sourceName, entity: entity.name, reason: refusal, invalidName: name)
            }
        }
        for index in entity.fetchIndexes {
            if let refusal = ModelNameRule.fetchIndex.refusal(of: index.name) {
                throw ModelError(file: sourceName, entity: entity.name, reason: refusal, invalidName: index.name)
            }
        }
    }

    private func entitiesByUniqueName() throws -> [String: EntityDescription] {
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            guard byName.updateValue(entity, forKey: entity.name) == nil else {
                throw error(entity.name, nil, .duplicateEntity)
            }
        }
        return byName
    }

    private func checkParent(of entity: EntityDescription, in byName: [String: EntityDescription]) throws {
        var visited: Set<String> = [entity.name]
        var next = entity.parentName
        while let parentName = next {
            guard let parent = byName[parentName] else {
                throw error(entity.name, nil, .unknownParent(parentName))
            }
            guard visited.insert(parentName).inserted else {
                throw error(entity.name, nil, .inheritanceCycle(through: parentName))
            }
            guard visited.count - 1 <= Self.maximumInheritanceDepth else { // the entity itself is not inherited
                throw error(entity.name, nil, .inheritanceTooDeep(maximum: Self.maximumInheritanceDepth))
            }
            next = parent.parentName
        }
    }

    /// Root first; only called once parents are known to be cycle-free.
    private func lineage(of entity: EntityDescription,
                         in byName: [String: EntityDescription]) -> [EntityDescription] {
        var chain = [entity]
        while let parentName = chain.last?.parentName, let parent = byName[parentName] {
            chain.append(parent)
        }
        return chain.reversed()
    }

    private func checkUniquePropertyNames(of entity: EntityDescription,
                                          lineage: [EntityDescription]) throws {
        var owner: [String: String] = [:]
        for member in lineage {
            for name in member.ownPropertyNames {
                if let first = owner.updateValue(member.name, forKey: name) {
                    throw error(entity.name, name, .duplicateProperty(alsoDeclaredBy: first == member.name ? nil : first))
                }
            }
        }
    }

    private func checkRelationships(of entity: EntityDescription,
                                    in byName: [String: EntityDescription]) throws {
        for relationship in entity.relationships {
            let destinationName = relationship.destinationEntityName
            guard let destination = byName[destinationName] else {
                throw error(entity.name, relationship.name, .unknownDestination(destinationName))
            }
            if relationship.maxCount > 0 && relationship.minCount > relationship.maxCount {
                throw error(entity.name, relationship.name,
                            .minCountAboveMaxCount(minCount: relationship.minCount, maxCount: relationship.maxCount))
            }
            guard let inverseName = relationship.inverseName else { continue }
            let candidates = lineage(of: destination, in: byName).flatMap(\.relationships)
            guard let inverse = candidates.first(where: { $0.name == inverseName }) else {
                throw error(entity.name, relationship.name, .inverseNotFound(inverse: inverseName, destination: destinationName))
            }
            let ownerLineage = lineage(of: entity, in: byName).map(\.name)
            guard ownerLineage.contains(inverse.destinationEntityName) else {
                throw error(entity.name, relationship.name,
                            .inverseOtherEntity(destination: destinationName, inverse: inverseName,
                                                pointsTo: inverse.destinationEntityName, entity: entity.name))
            }
            if let back = inverse.inverseName, back != relationship.name {
                throw error(entity.name, relationship.name,
                            .inverseOtherRelationship(destination: destinationName, inverse: inverseName, itsInverse: back))
            }
        }
    }

    private func checkConstraintsAndIndexes(of entity: EntityDescription, properties: Set<String>) throws {
        for constraint in entity.uniquenessConstraints {
            for name in constraint where !properties.contains(name) {
                throw error(entity.name, name, .unknownConstraintProperty)
            }
        }
        for index in entity.fetchIndexes {
            for element in index.elements where !properties.contains(element.property) {
                throw error(entity.name, element.property, .unknownFetchIndexProperty(index: index.name))
            }
        }
    }
}
