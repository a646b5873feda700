/// Orders fetch results by a key path (an attribute, or one reached through to-one relationships).
public struct SortDescriptor: Equatable, Sendable {
    /// The attribute, or `relationship.attribute` through to-one relationships.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// Sorts by `keyPath`, ascending unless told otherwise.
    public init(_ keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}

/// What to fetch: objects of an entity (sub-entities included unless turned off), filtered by a
/// predicate, sorted, and windowed by offset and limit.
public struct FetchRequest: Sendable {
    /// The entity whose objects are fetched.
    public var entityName: String
    /// Which objects to fetch; nil fetches all. Compiled to SQL as far as it can be.
    public var predicate: ObjectPredicate?
    /// The order of the results; ties go by primary key.
    public var sortDescriptors: [SortDescriptor]
    /// At most this many objects; nil for all.
    public var fetchLimit: Int?
    /// Objects to skip first, for windows of a long list.
    public var fetchOffset: Int
    /// With `fetchBatched`, how many rows are read at a time; the rest stay on disk until used.
    public var fetchBatchSize: Int
    /// Whether objects of sub-entities match too (Core Data's default, true).
    public var includesSubentities: Bool
    /// Values for `$variables` in the predicate.
    public var substitutionVariables: [String: AttributeValue?]

    /// A request for objects of `entityName`; the defaults fetch all of them, unsorted.
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
