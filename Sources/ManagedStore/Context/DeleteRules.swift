/// What deleting an object does to the objects related to it.
enum DeleteRules {
    static func apply(to object: ManagedObject, in context: ManagedObjectContext) {
        for relationship in context.info(for: object.entity.name).relationships.values {
            let related = targets(of: relationship, of: object, in: context)
            switch relationship.deleteRule {
            case .cascade:
                related.forEach(context.delete)
            case .nullify:
                guard let inverse = context.model.inverse(of: relationship) else { continue }
                for target in related {
                    if inverse.isToMany {
                        context.primitiveRemove(object.objectID, forKey: inverse.name, of: target)
                    } else if target.toOneTargets[inverse.name] == object.objectID {
                        context.primitiveSet(nil, forKey: inverse.name, of: target)
                    }
                }
            case .deny, .noAction:
                continue
            }
        }
    }

    /// Deny rules: a deleted object must not leave related objects behind.
    static func denyProblems(for object: ManagedObject, in context: ManagedObjectContext) -> [ValidationFailure.Problem] {
        context.info(for: object.entity.name).relationships.values
            .filter { $0.deleteRule == .deny }
            .sorted { $0.name < $1.name }
            .compactMap { relationship in
                let remaining = targets(of: relationship, of: object, in: context).filter { !$0.isDeleted }
                guard !remaining.isEmpty else { return nil }
                return ValidationFailure.Problem(
                    entity: object.entity.name, property: relationship.name,
                    reason: "cannot delete the object: the relationship still holds \(objectCount(remaining.count)) and its delete rule is Deny",
                    objectID: object.objectID)
            }
    }

    static func targets(of relationship: RelationshipDescription, of object: ManagedObject,
                        in context: ManagedObjectContext) -> [ManagedObject] {
        if relationship.isToMany {
            return context.memberIDs(forKey: relationship.name, of: object).compactMap(context.registeredOrFault)
        }
        return object.toOneTargets[relationship.name].flatMap(context.registeredOrFault).map { [$0] } ?? []
    }
}
