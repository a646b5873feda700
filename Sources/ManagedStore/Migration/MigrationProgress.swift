/// Where a migration is, often enough for a progress bar.
public struct MigrationProgress: Equatable, Sendable {
    /// The stage of Core Data's three-stage migration that is running.
    public enum Stage: String, Sendable {
        /// Stage 1: making the destination objects.
        case creatingObjects = "creating objects"
        /// Stage 2: setting their relationships.
        case creatingRelationships = "linking relationships"
        /// Stage 3: checking the new store against its model.
        case validating = "validating"
    }

    /// Of the whole migration, 0...1.
    public var fraction: Double
    /// The stage being run.
    public var stage: Stage
    /// The entity mapping being run, nil while validating.
    public var entityMappingName: String?
}
