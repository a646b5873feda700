/// Two consecutive mappings (A: v1 -> v2, then B: v2 -> v3) as one mapping from v1 to v3, so a
/// chain runs as one pass from the source into one new file and the intermediate version is never
/// written. Each of B's expressions over an intermediate object is rewritten over the v1 object
/// A made it from: `$source.x` becomes A's expression for `x`, `$source.r.x` follows A's link for
/// `r`, and relationships go straight from v1 objects to the v3 objects made from them.
///
/// It composes only what it can rewrite exactly, and says no (nil) otherwise; the chain then
/// splits there and runs step by step:
/// - A's and B's entity mappings have no custom policy, or a `SetBasedMigrationPolicy`: B's
///   functions' arguments are rewritten; a value A's policy computes is read by B only as
///   `$source.x` (it becomes the composed mapping's computed value, over the v1 object as it was);
/// - each entity B reads is made by exactly one of A's mappings, and has no subentities;
/// - relationships are `destinationInstances…` over `$source` or `$source.<relationship>`, and
///   key paths through to-one relationships;
/// - filters and values are constants and key paths.
/// The intermediate version is not validated: the v3 store is, as always.
struct MappingComposition {
    let first: MappingModel
    let second: MappingModel
    /// A's source version (the v1 objects).
    let sourceModel: ManagedObjectModel
    /// The version between (v2): A's destination, B's source.
    let intermediate: ManagedObjectModel
    /// The policies of A's mappings that compute values, by mapping index, with those values.
    private var computedByFirst: [Int: (policy: SetBasedPolicy, values: [String: ComputedValue])] = [:]

    typealias SetBasedPolicy = EntityMigrationPolicy & SetBasedMigrationPolicy

    init(first: MappingModel, second: MappingModel, sourceModel: ManagedObjectModel, intermediate: ManagedObjectModel) {
        self.first = first
        self.second = second
        self.sourceModel = sourceModel
        self.intermediate = intermediate
    }

    /// The composed mapping model and, by entity mapping, the policies to run it with.
    func compose(policies: [EntityMigrationPolicy], secondPolicies: [EntityMigrationPolicy]) throws
        -> (mapping: MappingModel, policies: [EntityMigrationPolicy])? {
        var composition = self
        for (index, (mapping, policy)) in zip(first.entityMappings, policies).enumerated() where mapping.policyClassName != nil {
            guard let setBased = policy as? SetBasedPolicy, policy.createsRelationshipsFromMappingExpressions else { return nil }
            composition.computedByFirst[index] = (setBased, try setBased.computedValues(for: mapping))
        }
        return try composition.composeMappings(secondPolicies: secondPolicies)
    }

    private func composeMappings(secondPolicies: [EntityMigrationPolicy]) throws -> (mapping: MappingModel, policies: [EntityMigrationPolicy])? {
        var mappings: [EntityMapping] = []
        var composedPolicies: [EntityMigrationPolicy] = []
        // Each of A's policies sees its lifecycle calls once, through the first of B's mappings
        // over the objects it made, whether or not that one copies its values.
        var forwarded: Set<Int> = []
        for (mapping, policy) in zip(second.entityMappings, secondPolicies) {
            guard let entity = mapping.sourceEntityName, let producer = producer(of: entity),
                  var (composed, inherited) = try compose(mapping, producer: producer) else { return nil }
            let earlier = forwarded.contains(producer) ? nil
                : computedByFirst[producer].map { ($0.policy as EntityMigrationPolicy, first.entityMappings[producer]) }
            if earlier != nil { forwarded.insert(producer) }
            if mapping.policyClassName == nil && inherited.isEmpty && earlier == nil {
                composedPolicies.append(policy)
            } else {
                var secondPolicy: SetBasedPolicy?
                if mapping.policyClassName != nil {
                    guard let setBased = policy as? SetBasedPolicy, policy.createsRelationshipsFromMappingExpressions else { return nil }
                    secondPolicy = setBased
                }
                guard let wrapped = try ComposedPolicy(secondPolicy, original: mapping, inherited: inherited, earlier: earlier,
                                                       rewrite: { substitute($0, producer: producer) }) else { return nil }
                composed.policyClassName = mapping.policyClassName ?? first.entityMappings[producer].policyClassName
                composedPolicies.append(wrapped)
            }
            mappings.append(composed)
        }
        return (MappingModel(name: "\(first.name)+\(second.name)", entityMappings: mappings,
                             sourceEntityHashes: first.sourceEntityHashes, destinationEntityHashes: second.destinationEntityHashes),
                composedPolicies)
    }

    /// B's mapping over A's producer: A's source and filter, B's values rewritten; and the values
    /// B copies (`$source.x`) that A's policy computes, which the composed policy computes instead.
    private func compose(_ mapping: EntityMapping, producer: Int) throws -> (EntityMapping, inherited: [String: ComputedValue])? {
        let made = first.entityMappings[producer]
        var filter = made.filterPredicate
        if let own = mapping.filterPredicate {
            guard let rewritten = substitute(own, producer: producer) else { return nil }
            filter = filter.map { .and([$0, rewritten]) } ?? rewritten
        }
        var attributes: [PropertyMapping] = []
        var inherited: [String: ComputedValue] = [:]
        for attribute in mapping.attributeMappings {
            guard let expression = attribute.valueExpression else {
                attributes.append(attribute)
                continue
            }
            // A's policy computed it from the v1 object: the composed policy computes it the same way.
            if case .keyPath(.variable("source")?, let components) = expression, components.count == 1,
               let computed = computedByFirst[producer]?.values[components[0]] {
                inherited[attribute.name] = computed
                continue
            }
            guard let rewritten = substitute(expression, producer: producer) else { return nil }
            attributes.append(PropertyMapping(name: attribute.name, valueExpression: rewritten, userInfo: attribute.userInfo))
        }
        var relationships: [PropertyMapping] = []
        for relationship in mapping.relationshipMappings {
            guard let expression = relationship.valueExpression else {
                relationships.append(relationship)
                continue
            }
            guard let rewritten = link(expression, over: mapping, producer: producer) else { return nil }
            relationships.append(PropertyMapping(name: relationship.name, valueExpression: rewritten ?? nil, userInfo: relationship.userInfo))
        }
        return (EntityMapping(name: mapping.name, sourceEntityName: made.sourceEntityName, destinationEntityName: mapping.destinationEntityName,
                              filterPredicate: filter, userInfo: mapping.userInfo, attributeMappings: attributes,
                              relationshipMappings: relationships), inherited)
    }

    // MARK: Which mapping made what

    /// The one mapping of A that makes objects of an intermediate entity without subentities.
    private func producer(of entity: String) -> Int? {
        guard intermediate.subentities(of: entity).isEmpty else { return nil }
        let makers = first.entityMappings.indices.filter { first.entityMappings[$0].destinationEntityName == entity }
        return makers.count == 1 ? makers[0] : nil
    }

    /// Of mappings `models`, the one reading `entity` exactly (none may read its subentities).
    private static func reader(of entity: String, in mapping: MappingModel, model: ManagedObjectModel) -> Int? {
        guard model.subentities(of: entity).isEmpty else { return nil }
        let readers = mapping.entityMappings.indices.filter { mapping.entityMappings[$0].sourceEntityName == entity }
        return readers.count == 1 ? readers[0] : nil
    }

    /// `FUNCTION($manager, "destinationInstances…", name, K)` with K `$source` or `$source.r`:
    /// the mapping the targets come from (by name, or the one reading K's entity), and K's path.
    /// The mapping is nil when the one named reads another entity: it made nothing from K's objects.
    private static func linkForm(_ expression: ValueExpression, in mapping: MappingModel, owner: String,
                                 model: ManagedObjectModel) -> (mapping: Int?, path: [String])? {
        guard case .function(.variable("manager"), let selector, let arguments) = expression, arguments.count == 2,
              case .constant(.string(let name)?) = arguments[0] else { return nil }
        let path: [String]
        var reached = owner
        switch arguments[1] {
        case .variable("source"): path = []
        case .keyPath(.variable("source")?, let components) where components.count == 1:
            guard let relationship = model.allRelationships(of: owner).first(where: { $0.name == components[0] }) else { return nil }
            path = components
            reached = relationship.destinationEntityName
        default: return nil
        }
        switch selector {
        case MigrationSelectors.destinationInstances:
            // K's objects may be of several kinds (`reached` and its subentities): the named
            // mapping made targets from those of the kind it reads, and nothing from the others.
            guard let index = mapping.entityMappings.firstIndex(where: { $0.name == name }) else { return nil }
            let read = mapping.entityMappings[index].sourceEntityName
            return (read.map { model.entity($0, isKindOf: reached) } == true ? index : nil, path)
        case MigrationSelectors.destinationInstancesForRelationship:
            return reader(of: reached, in: mapping, model: model).map { ($0, path) }
        default:
            return nil
        }
    }

    // MARK: Rewriting

    /// B's relationship expression over A's producer: `destinationInstances(B's mapping, K')`
    /// with K' the v1 objects A linked; `.some(nil)` when A links nothing (the relationship is empty).
    private func link(_ expression: ValueExpression, over mapping: EntityMapping, producer: Int) -> ValueExpression?? {
        guard let owner = mapping.sourceEntityName,
              let (found, path) = Self.linkForm(expression, in: second, owner: owner, model: intermediate) else { return nil }
        guard let target = found else { return .some(nil) }
        let made = first.entityMappings[producer]
        let targetName = second.entityMappings[target].name
        guard let targetEntity = second.entityMappings[target].sourceEntityName, let targetProducer = self.producer(of: targetEntity),
              let madeSource = made.sourceEntityName else { return nil }
        let reached: ValueExpression
        if path.isEmpty {
            // The same intermediate object: made from the same v1 object, by the same mapping.
            guard targetProducer == producer else { return nil }
            reached = .variable("source")
        } else {
            guard let linked = made.relationshipMappings.first(where: { $0.name == path[0] }) else { return nil }
            guard let expression = linked.valueExpression else { return .some(nil) }
            guard let (maker, sourcePath) = Self.linkForm(expression, in: first, owner: madeSource, model: sourceModel) else { return nil }
            // A linked objects that the target mapping does not read: it made nothing from them.
            guard maker == targetProducer else { return maker == nil ? .some(nil) : nil }
            reached = sourcePath.isEmpty ? .variable("source") : .keyPath(base: .variable("source"), components: sourcePath)
        }
        return .some(.function(target: .variable("manager"), selector: MigrationSelectors.destinationInstances,
                               arguments: [.constant(.string(targetName)), reached]))
    }

    /// A value over an intermediate object made by `producer`, as a value over the v1 object.
    func substitute(_ expression: ValueExpression, producer: Int) -> ValueExpression? {
        switch expression {
        case .constant:
            return expression
        case .keyPath(.variable("source")?, let components) where !components.isEmpty:
            return value(at: components, producer: producer, prefix: [])
        default:
            return nil
        }
    }

    /// The value at `components` of the intermediate object that `producer` made from the v1
    /// object at `prefix` (a path of to-one relationships from `$source`).
    private func value(at components: [String], producer: Int, prefix: [String]) -> ValueExpression? {
        let made = first.entityMappings[producer]
        guard let entity = made.destinationEntityName, let madeSource = made.sourceEntityName else { return nil }
        let key = components[0]
        if components.count == 1 {
            // A value A's policy computes is no expression over the v1 object: only a plain copy composes.
            guard computedByFirst[producer]?.values[key] == nil,
                  let attribute = intermediate.allAttributes(of: entity).first(where: { $0.name == key }) else { return nil }
            guard let expression = made.attributeMappings.first(where: { $0.name == key })?.valueExpression else {
                return .constant(attribute.defaultValue)
            }
            return Self.prefixed(expression, with: prefix)
        }
        guard let relationship = intermediate.allRelationships(of: entity).first(where: { $0.name == key }), !relationship.isToMany,
              let linked = made.relationshipMappings.first(where: { $0.name == key }) else { return nil }
        guard let expression = linked.valueExpression else { return .constant(nil) }
        guard let (found, path) = Self.linkForm(expression, in: first, owner: madeSource, model: sourceModel),
              path.allSatisfy({ name in sourceModel.allRelationships(of: madeSource).contains { $0.name == name && !$0.isToMany } })
        else { return nil }
        guard let maker = found else { return .constant(nil) }
        return value(at: Array(components.dropFirst()), producer: maker, prefix: prefix + path)
    }

    /// `$source.x` read from the object at `prefix` instead: `$source.<prefix>.x`.
    private static func prefixed(_ expression: ValueExpression, with prefix: [String]) -> ValueExpression? {
        switch expression {
        case .constant: return expression
        case .keyPath(.variable("source")?, let components): return .keyPath(base: .variable("source"), components: prefix + components)
        default: return nil
        }
    }

    /// A filter over the intermediate object (its key paths relative to it) over the v1 object.
    private func substitute(_ predicate: ObjectPredicate, producer: Int) -> ObjectPredicate? {
        func operand(_ expression: ValueExpression) -> ValueExpression? {
            switch expression {
            case .constant: return expression
            case .keyPath(nil, let components) where !components.isEmpty:
                switch value(at: components, producer: producer, prefix: []) {
                case .keyPath(.variable("source")?, let path)?: return .keyPath(base: nil, components: path)
                case .constant(let value)?: return .constant(value)
                default: return nil
                }
            case .keyPath(.variable("source")?, _): return substitute(expression, producer: producer)
            default: return nil
            }
        }
        switch predicate {
        case .constant: return predicate
        case .comparison(let left, let comparison, let right, let options):
            guard let left = operand(left), let right = operand(right) else { return nil }
            return .comparison(left, comparison, right, options)
        case .and(let parts):
            let rewritten = parts.compactMap { substitute($0, producer: producer) }
            return rewritten.count == parts.count ? .and(rewritten) : nil
        case .or(let parts):
            let rewritten = parts.compactMap { substitute($0, producer: producer) }
            return rewritten.count == parts.count ? .or(rewritten) : nil
        case .not(let inner):
            return substitute(inner, producer: producer).map { .not($0) }
        }
    }
}

/// The set-based policies of a composed entity mapping: B's, its functions' arguments rewritten
/// over the v1 object, and the values A's policy computed that B copies. The lifecycle calls
/// reach each original policy with its own mapping (A's first).
final class ComposedPolicy: EntityMigrationPolicy, SetBasedMigrationPolicy {
    /// The original policies and their mappings; empty only for an instance the registry made,
    /// which is never used.
    private var inner: [(policy: EntityMigrationPolicy, mapping: EntityMapping)] = []
    private var values: [String: ComputedValue] = [:]

    required init() {}

    /// Nil when an argument of B's functions cannot be rewritten.
    init?(_ policy: (EntityMigrationPolicy & SetBasedMigrationPolicy)?, original: EntityMapping, inherited: [String: ComputedValue],
          earlier: (EntityMigrationPolicy, EntityMapping)?, rewrite: (ValueExpression) -> ValueExpression?) throws {
        super.init()
        values = inherited
        if let earlier { inner.append(earlier) }
        guard let policy else { return }
        inner.append((policy, original))
        for (name, value) in try policy.computedValues(for: original) {
            let arguments = value.arguments.compactMap(rewrite)
            guard arguments.count == value.arguments.count else { return nil }
            values[name] = ComputedValue(value.function, arguments)
        }
    }

    func computedValues(for mapping: EntityMapping) throws -> [String: ComputedValue] { values }

    /// When every original policy leaves what its mapping copies as it was, so does the composition.
    var leavesCopiedValues: Bool {
        inner.allSatisfy { ($0.policy as? SetBasedMigrationPolicy)?.leavesCopiedValues == true }
    }

    private func forward(_ call: (EntityMigrationPolicy, EntityMapping) throws -> Void) rethrows {
        for (policy, mapping) in inner { try call(policy, mapping) }
    }

    override func beginEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {
        try forward { try $0.beginEntityMapping($1, manager: manager) }
    }

    override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        try forward { try $0.endInstanceCreation(for: $1, manager: manager) }
    }

    override func endRelationshipCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        try forward { try $0.endRelationshipCreation(for: $1, manager: manager) }
    }

    override func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {
        try forward { try $0.performCustomValidation(for: $1, manager: manager) }
    }

    override func endEntityMapping(_ mapping: EntityMapping, manager: MigrationManager) throws {
        try forward { try $0.endEntityMapping($1, manager: manager) }
    }
}
