/// Where a migration is, often enough for a progress bar.
public struct MigrationProgress: Equatable, Sendable {
    public enum Stage: String, Sendable {
        case creatingObjects = "creating objects"
        case creatingRelationships = "linking relationships"
        case validating = "validating"
    }

    /// Of the whole migration, 0...1.
    public var fraction: Double
    public var stage: Stage
    /// The entity mapping being run, nil while validating.
    public var entityMappingName: String?
}
