/// What a store should hold after a migration, carried forward step by step from what it held
/// before: counts, attribute values and relationship links that the steps' mappings carry
/// unchanged. What a step computes (custom policies, filters, expressions other than a plain
/// `$source.key` or a constant) is left unknown and not checked.
struct ExpectedContents {
    struct Entity {
        var count: Int?
        var values: [String: [String]] = [:]
        var links: [String: Int] = [:]
    }

    var entities: [String: Entity]

    init(entities: [String: Entity]) {
        self.entities = entities
    }

    init(_ contents: StoreContents) {
        entities = contents.entities.mapValues { Entity(count: $0.count, values: $0.values, links: $0.links) }
    }

    /// The contents expected after one step. A custom policy hides what its mapping does, unless
    /// it is a set-based policy that leaves copied values alone (one object per source object,
    /// only its computed attributes its own).
    func after(_ step: MigrationStep, policies: MigrationPolicyRegistry) -> ExpectedContents {
        var next = ExpectedContents(entities: [:])
        switch step.kind {
        case .inPlace(let inferred), .inferredCopy(let inferred, _):
            for entity in step.destination.entities where !entity.isAbstract {
                guard let sourceName = inferred.sourceEntity(for: entity.name) else {
                    next.entities[entity.name] = Entity(count: 0)
                    continue
                }
                guard let before = entities[sourceName] else { continue }
                var expected = Entity(count: before.count)
                let defaults = Self.defaultsOfRequired(step.destination.allAttributes(of: entity.name))
                for (property, sourceProperty) in inferred.propertyMatches[entity.name] ?? [:] {
                    if var values = before.values[sourceProperty] {
                        // An attribute made required with a default gets the default where it had no
                        // value (a lightweight migration Core Data infers): that is carried too.
                        if let fallback = defaults[property] { values = values.map { $0 == "nil" ? fallback : $0 }.sorted() }
                        expected.values[property] = values
                    }
                    if let links = before.links[sourceProperty] { expected.links[property] = links }
                }
                next.entities[entity.name] = expected
            }
        case .mappingModel(let mapping):
            var computed: [String: Set<String>] = [:]
            for entityMapping in mapping.entityMappings {
                guard let name = entityMapping.policyClassName else { computed[entityMapping.name] = []; continue }
                // A policy that cannot be made or says nothing of its values leaves that mapping's values unpredicted; the trial still checks counts.
                guard let policy = try? policies.makePolicy(named: name, for: entityMapping.name) as? SetBasedMigrationPolicy,
                      policy.leavesCopiedValues, let values = try? policy.computedValues(for: entityMapping) else { continue }
                computed[entityMapping.name] = Set(values.keys)
            }
            let isPlain = { (entityMapping: EntityMapping) in
                computed[entityMapping.name] != nil && entityMapping.sourceEntityName != nil
                    && entityMapping.destinationEntityName != nil && entityMapping.takesEverySourceObject
            }
            let plain = Set(mapping.entityMappings.filter(isPlain).map(\.name))
            for entity in step.destination.entities where !entity.isAbstract {
                let mappings = mapping.entityMappings.filter { $0.destinationEntityName == entity.name }
                guard !mappings.isEmpty else {
                    next.entities[entity.name] = Entity(count: 0)
                    continue
                }
                guard mappings.count == 1, let only = mappings.first, plain.contains(only.name), let sourceName = only.sourceEntityName,
                      let before = entities[sourceName], let count = before.count else {
                    next.entities[entity.name] = Entity(count: nil)
                    continue
                }
                var expected = Entity(count: count)
                for property in only.attributeMappings where !(computed[only.name]?.contains(property.name) ?? true) {
                    switch property.valueExpression {
                    case .keyPath(.variable("source")?, let components)? where components.count == 1:
                        if let values = before.values[components[0]] { expected.values[property.name] = values }
                    case .constant(let value)?:
                        expected.values[property.name] = Array(repeating: StoreContents.fingerprint(value), count: count)
                    default: break
                    }
                }
                for property in only.relationshipMappings {
                    guard case .function(.variable("manager"), let selector, let arguments)? = property.valueExpression,
                          arguments.count == 2, case .keyPath(.variable("source")?, let components) = arguments[1], components.count == 1
                    else { continue }
                    let target: Bool
                    switch (selector, arguments[0]) {
                    case (MigrationSelectors.destinationInstances, .constant(.string(let name)?)): target = plain.contains(name)
                    default: target = false
                    }
                    if target, let links = before.links[components[0]] { expected.links[property.name] = links }
                }
                next.entities[entity.name] = expected
            }
        }
        return next
    }

    /// The fingerprints of the defaults of required attributes that have one, by name.
    private static func defaultsOfRequired(_ attributes: [AttributeDescription]) -> [String: String] {
        var defaults: [String: String] = [:]
        for attribute in attributes where !attribute.isOptional {
            if let value = attribute.defaultValue { defaults[attribute.name] = StoreContents.fingerprint(value) }
        }
        return defaults
    }

    /// How many facts are checked against the migrated store: counts, value lists, link counts.
    var checkCount: Int {
        entities.values.reduce(0) { $0 + ($1.count == nil ? 0 : 1) + $1.values.count + $1.links.count }
    }

    /// How `actual` differs from what was expected, one line per difference.
    func differences(from actual: StoreContents) -> [String] {
        var found: [String] = []
        for (name, expected) in entities.sorted(by: { $0.key < $1.key }) {
            guard let got = actual.entities[name] else { continue }
            if let count = expected.count, count != got.count {
                found.append("\(name): \(count) object(s) expected, \(got.count) found")
                continue
            }
            for (key, values) in expected.values.sorted(by: { $0.key < $1.key }) where got.values[key] != values && got.count > 0 {
                let kept = Self.common(values, got.values[key] ?? [])
                found.append("\(name).\(key): \(values.count - kept) of \(values.count) value(s) not carried")
            }
            for (key, links) in expected.links.sorted(by: { $0.key < $1.key }) where got.links[key, default: 0] != links {
                found.append("\(name).\(key): \(links) link(s) expected, \(got.links[key, default: 0]) found")
            }
        }
        return found
    }

    /// How many items two sorted lists share.
    private static func common(_ left: [String], _ right: [String]) -> Int {
        var counts: [String: Int] = [:]
        for item in left { counts[item, default: 0] += 1 }
        var shared = 0
        for item in right where counts[item, default: 0] > 0 {
            counts[item, default: 0] -= 1
            shared += 1
        }
        return shared
    }
}
