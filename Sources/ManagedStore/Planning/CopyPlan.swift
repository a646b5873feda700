internal import GRDB

/// How stage 1 of a copying migration makes one entity mapping's destination objects.
enum InstancePlan {
    /// No source or no destination entity: nothing to make.
    case nothing
    /// One `INSERT … SELECT` per batch of the selected rows.
    case setBased(SourceSelection, InstanceStatement)
    /// Object by object, through the mapping's policy.
    case perObject(SourceSelection)

    var isSetBased: Bool {
        if case .perObject = self { false } else { true }
    }
}

/// What a copying migration does with each entity mapping, decided from the two schemas, the
/// mapping model and its policies before anything is written: how each mapping's objects are
/// made, which mappings' objects keep their source objects' keys, and whether every mapping is
/// numbered before any row goes in. A value, read by the stages and the association tables.
struct CopyPlan {
    /// The source rows each entity mapping reads (nil: it has no source entity), by mapping index.
    let selections: [SourceSelection?]
    /// How each entity mapping's objects are made, by mapping index.
    let instances: [InstancePlan]
    /// Mappings whose destination objects keep their source objects' keys: see `keepingSourceKeys`.
    let keepsSourceKeys: Set<Int>
    /// Every mapping runs as SQL and takes its relationships from its expressions: all are
    /// numbered first, so each row is inserted whole, its foreign keys included, and stage 2
    /// has only join tables left to fill.
    let numbersFirst: Bool
    /// The destination entities whose objects the mappings make, when nothing else can write
    /// objects: every mapping numbered first, each without a policy or with one that writes only
    /// its computed values. Nil when a policy's hooks may make objects of any entity.
    let entitiesMade: Set<String>?

    /// Plans `mapping` from `source` to `destination`, `policies` being its entity mappings'
    /// policies in order.
    init(mapping: MappingModel, source: StoreSchema, destination: StoreSchema, policies: [EntityMigrationPolicy]) throws {
        let selections = mapping.entityMappings.map { SourceSelection($0, source: source) }
        self.selections = selections
        instances = try mapping.entityMappings.indices.map { index in
            try Self.instancePlan(mapping.entityMappings[index], selection: selections[index], policy: policies[index],
                                  source: source, destination: destination)
        }
        keepsSourceKeys = Self.keepingSourceKeys(instances)
        numbersFirst = instances.allSatisfy(\.isSetBased) && policies.allSatisfy(\.createsRelationshipsFromMappingExpressions)
        let onlyMappingsWrite = zip(mapping.entityMappings, policies).allSatisfy { mapping, policy in
            mapping.policyClassName == nil || (policy as? SetBasedMigrationPolicy)?.leavesCopiedValues == true
        }
        entitiesMade = numbersFirst && onlyMappingsWrite
            ? Set(instances.compactMap { if case .setBased(_, let statement) = $0 { statement.destination.name } else { nil } })
            : nil
    }

    /// Set-based when the mapping has no policy or a `SetBasedMigrationPolicy`, and SQL can
    /// express its filter and every value.
    private static func instancePlan(_ mapping: EntityMapping, selection: SourceSelection?, policy: EntityMigrationPolicy,
                                     source: StoreSchema, destination: StoreSchema) throws -> InstancePlan {
        guard mapping.destinationEntityName != nil, let selection else { return .nothing }
        let computing = policy as? SetBasedMigrationPolicy
        guard mapping.policyClassName == nil || computing != nil, selection.residual == nil,
              let statement = InstanceStatement(mapping, source: source, destination: destination,
                                                computed: try computing?.computedValues(for: mapping) ?? [:],
                                                leavesCopies: mapping.policyClassName == nil || computing?.leavesCopiedValues == true)
        else { return .perObject(selection) }
        return .setBased(selection, statement)
    }

    /// Set-based mappings that are the only ones making objects of their destination hierarchy,
    /// without a filter: their objects can keep the source's keys
    /// (unique in the source table, and nothing else numbers that hierarchy), so their association
    /// is a view over the source rather than a table of every pair, written and indexed.
    private static func keepingSourceKeys(_ plans: [InstancePlan]) -> Set<Int> {
        var hierarchies: [String: Int] = [:]
        for plan in plans {
            if case .setBased(_, let statement) = plan { hierarchies[statement.destination.rootName, default: 0] += 1 }
            if case .perObject = plan { return [] }
        }
        return Set(plans.indices.filter { index in
            guard case .setBased(let selection, let statement) = plans[index], !selection.isFiltered else { return false }
            return hierarchies[statement.destination.rootName] == 1
        })
    }

    /// The destination entities of mappings keeping source keys, with what they copied unchanged.
    func keptObjects(of mapping: MappingModel) -> KeptObjects {
        var kept = KeptObjects()
        for index in keepsSourceKeys {
            guard case .setBased(_, let statement) = instances[index],
                  let sourceName = mapping.entityMappings[index].sourceEntityName else { continue }
            kept.entities[statement.destination.name] = KeptObjects.Entity(sourceEntity: sourceName,
                                                                           copiedAttributes: statement.copiedAttributes)
        }
        return kept
    }

    /// For each destination entity, the attributes every mapping making it leaves valid (the
    /// intersection over its mappings): validation skips them. Only when every mapping is
    /// numbered first; otherwise none.
    var validAttributes: [String: Set<String>] {
        guard numbersFirst else { return [:] }
        var valid: [String: Set<String>] = [:]
        for case .setBased(_, let statement) in instances {
            let name = statement.destination.name
            valid[name] = valid[name].map { $0.intersection(statement.validAttributes) } ?? statement.validAttributes
        }
        return valid
    }
}
