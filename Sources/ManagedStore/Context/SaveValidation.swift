/// The checks a save makes before writing: required values, value types, relationship targets
/// and counts, Deny rules. Each problem names the entity, the property and the reason.
struct SaveValidation {
    let context: ManagedObjectContext

    func problems(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) -> [ValidationFailure.Problem] {
        var problems: [ValidationFailure.Problem] = []
        for object in inserted + updated {
            problems += check(object, isInserted: object.isInserted)
        }
        for object in deleted {
            problems += DeleteRules.denyProblems(for: object, in: context)
        }
        return problems
    }

    private func check(_ object: ManagedObject, isInserted: Bool) -> [ValidationFailure.Problem] {
        let entity = object.entity.name
        let info = context.info(for: entity)
        var problems = object.settingProblems.sorted(by: { $0.key < $1.key }).map {
            ValidationFailure.Problem(entity: entity, property: $0.key, reason: $0.value, objectID: object.objectID)
        }
        func problem(_ property: String, _ reason: String) {
            problems.append(ValidationFailure.Problem(entity: entity, property: property, reason: reason,
                                                    objectID: object.objectID))
        }
        for attribute in info.attributes.values.sorted(by: { $0.name < $1.name }) where !attribute.isTransient {
            guard let value = object.values[attribute.name] else {
                if !attribute.isOptional { problem(attribute.name, "a value is required") }
                continue
            }
            if let reason = Self.typeProblem(value, attribute.type) { problem(attribute.name, reason) }
        }
        for relationship in info.relationships.values.sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
            let destination = relationship.destinationEntityName
            if relationship.isToMany {
                guard let members = object.toManyMembers[relationship.name] ?? (isInserted ? [] : nil) else { continue }
                for member in members where !context.model.entity(member.entityName, isKindOf: destination) {
                    problem(relationship.name, "holds a \(member.entityName), which is not a \(destination)")
                }
                let count = members.count
                if count == 0 && !relationship.isOptional {
                    problem(relationship.name, "at least one object is required")
                } else if count > 0 && count < relationship.minCount {
                    problem(relationship.name, "holds \(objectCount(count)), fewer than the minimum \(relationship.minCount)")
                } else if relationship.maxCount > 0 && count > relationship.maxCount {
                    problem(relationship.name, "holds \(objectCount(count)), more than the maximum \(relationship.maxCount)")
                }
            } else if let target = object.toOneTargets[relationship.name] {
                if !context.model.entity(target.entityName, isKindOf: destination) {
                    problem(relationship.name, "points to a \(target.entityName), which is not a \(destination)")
                }
            } else if !relationship.isOptional {
                problem(relationship.name, "a related object is required")
            }
        }
        return problems
    }

    /// Why a value cannot be stored in an attribute of the type, nil when it can.
    static func typeProblem(_ value: AttributeValue, _ type: AttributeType) -> String? {
        let fits: Bool = switch (value, type) {
        case (.integer(let number), .integer16): Int16(exactly: number) != nil
        case (.integer(let number), .integer32): Int32(exactly: number) != nil
        case (.integer, .integer64), (.integer, .objectID): true
        case (.double, .double), (.double, .float), (.integer, .double), (.integer, .float): true
        case (.decimal, .decimal): true
        case (.string, .string): true
        case (.bool, .boolean): true
        case (.date, .date): true
        case (.data, .binary), (.data, .transformable): true
        case (.uuid, .uuid): true
        case (.uri, .uri): true
        default: false
        }
        return fits ? nil : "\(value.kindName) \(value.displayText.prefix(40)) does not fit a \(type.rawValue) attribute"
    }
}

extension AttributeValue {
    var kindName: String {
        switch self {
        case .integer: "the integer"
        case .double: "the number"
        case .decimal: "the decimal"
        case .string: "the string"
        case .bool: "the boolean"
        case .date: "the date"
        case .data: "the data"
        case .uuid: "the UUID"
        case .uri: "the URI"
        }
    }
}
