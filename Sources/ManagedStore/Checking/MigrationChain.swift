/// The chain of steps between consecutive versions of a model, as the self-migrating stack
/// (`StoreMigrator`, through `MigrationPlanner`) would take them: a mapping model found by
/// version hashes, or else an inferred mapping; or a gap where neither exists.
public struct MigrationChain {
    /// One link: from a version to the next, and how (or why not).
    public struct Link {
        /// The version migrated from.
        public var source: ManagedObjectModel
        /// The next version.
        public var destination: ManagedObjectModel
        /// The step the stack would run, or why there is none (`MigrationError.noMigrationPath`).
        public var step: Result<MigrationStep, MigrationError>
        /// What changes, as `model diff` explains it.
        public var diff: ModelDiff
    }

    /// The versions in order, oldest first.
    public let model: VersionedModel
    /// One link per consecutive pair up to the current version.
    public let links: [Link]

    /// Plans every link up to the model's current version with the given mapping models.
    public init(model: VersionedModel, mappingModels: [MappingModel]) {
        self.model = model
        let end = model.versions.firstIndex { $0.name == model.currentVersionName } ?? model.versions.count - 1
        links = (0..<max(0, end)).map { index in
            let source = model.versions[index], destination = model.versions[index + 1]
            let step: Result<MigrationStep, MigrationError>
            do {
                let plan = try MigrationPlanner.plan(from: source, to: destination, in: model, mappingModels: mappingModels)
                step = .success(plan.steps[0])
            } catch let error as MigrationError {
                step = .failure(error)
            } catch {
                step = .failure(.failed(from: source.name, to: destination.name, cause: error))
            }
            return Link(source: source, destination: destination, step: step, diff: ModelDiff(from: source, to: destination))
        }
    }

    /// The short name of a version (`v2`).
    public func label(_ version: ManagedObjectModel) -> String { model.label(of: version) }

    /// "v2 -> v3"
    public func name(of link: Link) -> String { "\(label(link.source)) -> \(label(link.destination))" }
}
