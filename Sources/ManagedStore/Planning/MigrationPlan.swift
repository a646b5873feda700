/// One step of a plan: from a model version to the next, and how.
public struct MigrationStep: Sendable {
    /// How a step migrates, which decides whether it runs in place or copies the store.
    public enum Kind: Sendable {
        /// An inferred mapping, done with SQL inside the store file.
        case inPlace(InferredMapping)
        /// An inferred mapping that SQL alone cannot do: objects are copied into a new file.
        case inferredCopy(InferredMapping, reason: String?)
        /// A mapping model found for the pair of versions.
        case mappingModel(MappingModel)
    }

    /// The version the step migrates from.
    public let source: ManagedObjectModel
    /// The version the step migrates to (the next one).
    public let destination: ManagedObjectModel
    /// How the step migrates.
    public let kind: Kind

    /// The custom policy class names the step's mapping model uses, each once (one policy may
    /// serve several entity mappings, as v4 -> v5's identifiers do for notes and images).
    public var customPolicies: [String] {
        guard case .mappingModel(let mapping) = kind else { return [] }
        var seen: Set<String> = []
        return mapping.entityMappings.compactMap(\.policyClassName).filter { seen.insert($0).inserted }
    }

    /// "in place", "inferred, copied", "mapping model M", "mapping model M, custom policy P".
    public var kindDescription: String {
        switch kind {
        case .inPlace: return "in place"
        case .inferredCopy: return "inferred, copied"
        case .mappingModel(let mapping):
            let policies = customPolicies
            return policies.isEmpty ? "mapping model \(mapping.name)"
                : "mapping model \(mapping.name), custom policy \(policies.joined(separator: ", "))"
        }
    }
}

/// The steps from a store's version to the target version, one version at a time.
public struct MigrationPlan: Sendable {
    /// The store's version.
    public let source: ManagedObjectModel
    /// The target version.
    public let destination: ManagedObjectModel
    /// The steps in order; empty when the two are the same version.
    public let steps: [MigrationStep]
}

/// Plans migrations from the versions and mapping models there are, never per version by hand:
/// each consecutive pair of versions uses the mapping model found for it by version hashes, or
/// else an inferred mapping (in place when SQL alone can do it). Adding a version needs only the
/// new model, and a mapping model when the change cannot be inferred.
public enum MigrationPlanner {
    /// Plans the steps from `source` to `destination` with `mappingModels` where they apply; throws
    /// `MigrationError.noMigrationPath` when a step can be neither found nor inferred.
    public static func plan(from source: ManagedObjectModel, to destination: ManagedObjectModel,
                            in model: VersionedModel, mappingModels: [MappingModel]) throws -> MigrationPlan {
        guard let start = model.versions.firstIndex(where: { $0.name == source.name }),
              let end = model.versions.firstIndex(where: { $0.name == destination.name }) else {
            throw MigrationError.noMigrationPath(store: nil, from: source.name, to: destination.name, reason: .notVersions(of: model.name))
        }
        guard start <= end else {
            throw MigrationError.noMigrationPath(store: nil, from: source.name, to: destination.name, reason: .backwards)
        }
        var steps: [MigrationStep] = []
        for index in stride(from: start, to: end, by: 1) {
            steps.append(try step(from: model.versions[index], to: model.versions[index + 1], mappingModels: mappingModels))
        }
        return MigrationPlan(source: source, destination: destination, steps: steps)
    }

    private static func step(from source: ManagedObjectModel, to destination: ManagedObjectModel,
                             mappingModels: [MappingModel]) throws -> MigrationStep {
        if let mapping = MappingModel.find(in: mappingModels, from: source, to: destination) {
            return MigrationStep(source: source, destination: destination, kind: .mappingModel(mapping))
        }
        let inferred: InferredMapping
        do {
            inferred = try MappingInference.infer(from: source, to: destination)
        } catch let error as InferenceError {
            throw MigrationError.noMigrationPath(store: nil, from: source.name, to: destination.name, reason: .cannotInfer(error))
        }
        let check = try InPlaceMigration.check(inferred, from: source, to: destination)
        return MigrationStep(source: source, destination: destination,
                             kind: check.possible ? .inPlace(inferred) : .inferredCopy(inferred, reason: check.reason))
    }
}
