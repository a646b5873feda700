/// The way a store of one older version reaches the current version: the steps the stack takes,
/// what Core Data's own automatic migration (one jump, no chaining) would do, and the verdict.
public struct MigrationRoute: Sendable, Encodable {
    /// One step of the route.
    public struct Step: Sendable, Encodable {
        /// "v2 -> v3"
        public var name: String
        /// "in place", "inferred, copied", "mapping model M, custom policy P", "none possible", or
        /// "not checked: …" for a version this program cannot store.
        public var how: String
        /// Each change, as `model diff` lists it ("+ added optional attribute Note.image: inferred (…)").
        public var changes: [String]
        /// Why the step is impossible, when it is.
        public var blocked: String?
        /// Whether it is blocked only because this program cannot store a version (Core Data may migrate it).
        public var isUncheckedHere = false
    }

    /// The older version's name.
    public var source: String
    /// Its short name (`v2`).
    public var label: String
    /// The current version's name.
    public var destination: String
    /// The steps, one per version on the way.
    public var steps: [Step]
    /// What Core Data's automatic migration (`NSPersistentContainer`'s defaults) would do with a
    /// store of this version: one jump, by a mapping model from it to the current version, or
    /// inferred, or neither ("Can't find mapping model for migration").
    public var coreDataDirect: String
    /// Whether the stack can migrate such a store at all.
    public var isPossible: Bool { steps.allSatisfy { $0.blocked == nil } }

    /// The route from `start` (an index into the model's versions) along `chain`; `unstorable`
    /// names the versions this program cannot store, whose steps are not checked.
    init(from start: Int, chain: MigrationChain, mappingModels: [MappingModel], unstorable: Set<String> = []) {
        let version = chain.model.versions[start]
        source = version.name
        label = chain.label(version)
        destination = chain.model.current.name
        steps = chain.links[start...].map { link in
            let changes = link.diff.changes.map { change in
                "\(change.isInferable ? "+" : "!") \(change.description): " + (change.rule.map { "inferred (\($0))" } ?? "needs a mapping model")
            }
            switch link.step {
            case .success(let step): return Step(name: chain.name(of: link), how: step.kindDescription, changes: changes, blocked: nil)
            case .failure(let error):
                let uncheckable = [link.source.name, link.destination.name].filter(unstorable.contains)
                let how = uncheckable.isEmpty ? "none possible" : "not checked: this program cannot store \(uncheckable.joined(separator: " or "))"
                return Step(name: chain.name(of: link), how: how, changes: changes, blocked: error.description,
                            isUncheckedHere: !uncheckable.isEmpty)
            }
        }
        let current = chain.model.current
        if let direct = MappingModel.find(in: mappingModels, from: version, to: current) {
            coreDataDirect = "mapping model \(direct.name)"
        } else {
            let diff = ModelDiff(from: version, to: current)
            // Said only where this route does get there: under a blocked route it would mislead.
            let stepByStep = steps.allSatisfy { $0.blocked == nil } ? "; only a step-by-step migration like this one reaches \(current.name)" : ""
            let blocking = diff.changes.filter { !$0.isInferable }
            let blockingText = blocking.map(\.description).joined(separator: "; ")
            if blocking.isEmpty {
                coreDataDirect = "lightweight (inferred in one jump)"
            } else if blocking.allSatisfy(\.failsOnlyAtValidationInCoreData) {
                coreDataDirect = "inferred in one jump, but a store with objects lacking the value fails (\(blockingText)): "
                    + "\"Validation error missing attribute values on mandatory destination attribute\" (error 134110)" + stepByStep
            } else {
                coreDataDirect = "fails: \"Can't find mapping model for migration\" (\(blockingText))" + stepByStep
            }
        }
    }

    /// "v2 -> v3 (mapping model M), v3 -> v4 (in place)"
    public var summary: String {
        steps.map { "\($0.name) (\($0.how))" }.joined(separator: ", ")
    }
}
