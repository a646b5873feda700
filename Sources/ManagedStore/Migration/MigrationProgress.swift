/// Where a migration is, often enough for a progress bar.
public struct MigrationProgress: Equatable, Sendable {
    /// The stage of Core Data's three-stage migration that is running.
    public enum Stage: String, Sendable {
        case creatingObjects = "creating objects"
        case creatingRelationships = "linking relationships"
        case validating = "validating"
    }

    /// Of the whole migration, 0...1.
    public var fraction: Double
    /// The stage being run.
    public var stage: Stage
    /// The entity mapping being run, nil while validating.
    public var entityMappingName: String?
}
