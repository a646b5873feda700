/// Consecutive steps of a plan run as one pass: their mappings composed (`MappingComposition`),
/// read once from the store or working copy and written once into one new file, the versions
/// between never materialised. A chain splits only where two mappings cannot be composed (a
/// per-object policy, say); an in-place step left alone stays in place.
struct MigrationPass {
    /// The plan's steps this pass runs.
    let steps: Range<Int>
    /// The (composed) mapping to copy with; nil for an in-place step run alone.
    let mapping: MappingModel?
    /// The policies of `mapping`'s entity mappings.
    let policies: [EntityMigrationPolicy]

    var isInPlace: Bool { mapping == nil }

    /// What an in-place pass keeps (every row and key, and the attributes it leaves as they
    /// were); nothing for a copying pass, whose manager tells.
    func keptInPlace(of plan: MigrationPlan) -> KeptObjects {
        let step = plan.steps[steps.lowerBound]
        guard isInPlace, case .inPlace(let inferred) = step.kind else { return KeptObjects() }
        return KeptObjects.inPlace(inferred, from: step.source, to: step.destination)
    }

    static func passes(of plan: MigrationPlan, registry: MigrationPolicyRegistry) throws -> [MigrationPass] {
        var passes: [MigrationPass] = []
        var pending: (steps: Range<Int>, mapping: MappingModel, policies: [EntityMigrationPolicy])?
        func close() {
            guard let done = pending else { return }
            let inPlaceAlone: Bool = if done.steps.count == 1, case .inPlace = plan.steps[done.steps.lowerBound].kind { true } else { false }
            passes.append(MigrationPass(steps: done.steps, mapping: inPlaceAlone ? nil : done.mapping, policies: done.policies))
            pending = nil
        }
        for (index, step) in plan.steps.enumerated() {
            let mapping = step.mappingModel
            let policies = try mapping.entityMappings.map { try registry.makePolicy(named: $0.policyClassName, for: $0.name) }
            if let current = pending,
               let composed = try MappingComposition(first: current.mapping, second: mapping, sourceModel: plan.steps[current.steps.lowerBound].source,
                                                     intermediate: step.source).compose(policies: current.policies, secondPolicies: policies) {
                pending = (current.steps.lowerBound..<(index + 1), composed.mapping, composed.policies)
                continue
            }
            close()
            pending = (index..<(index + 1), mapping, policies)
        }
        close()
        return passes
    }
}

extension MigrationStep {
    /// The mapping the step copies with (an in-place step's inferred mapping, when composed).
    var mappingModel: MappingModel {
        switch kind {
        case .inPlace(let inferred), .inferredCopy(let inferred, _): inferred.mappingModel
        case .mappingModel(let mapping): mapping
        }
    }
}
