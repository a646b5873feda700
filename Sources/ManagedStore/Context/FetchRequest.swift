/// Orders fetch results by a key path (an attribute, or one reached through to-one relationships).
public struct SortDescriptor: Equatable, Sendable {
    public var keyPath: String
    public var ascending: Bool

    public init(_ keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}

/// What to fetch: objects of an entity (sub-entities included unless turned off), filtered by a
/// predicate, sorted, and windowed by offset and limit.
public struct FetchRequest: Sendable {
    public var entityName: String
    public var predicate: ObjectPredicate?
    public var sortDescriptors: [SortDescriptor]
    public var fetchLimit: Int?
    public var fetchOffset: Int
    /// With `fetchBatched`, how many rows are read at a time; the rest stay on disk until used.
    public var fetchBatchSize: Int
    public var includesSubentities: Bool
    /// Values for `$variables` in the predicate.
    public var substitutionVariables: [String: AttributeValue?]

    public init(entityName: String, predicate: ObjectPredicate? = nil, sortDescriptors: [SortDescriptor] = [],
                fetchLimit: Int? = nil, fetchOffset: Int = 0, fetchBatchSize: Int = 0,
                includesSubentities: Bool = true, substitutionVariables: [String: AttributeValue?] = [:]) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
        self.substitutionVariables = substitutionVariables
    }
}
