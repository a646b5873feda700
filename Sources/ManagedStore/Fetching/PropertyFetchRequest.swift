/// Core Data's dictionary result type: chosen properties of the objects of an entity (its
/// sub-entities included unless turned off), read straight from the rows without making managed
/// objects, so a list of a million rows streams at the speed of the store.
///
/// As in Core Data, it reads the saved store: unsaved changes of the context are not seen. The
/// predicate and the sort must be expressible in SQL (attributes, to-one key paths, the
/// comparison operators); one that is not is refused rather than answered slowly.
public struct PropertyFetchRequest: Sendable {
    /// One value of each result row.
    public enum Property: Equatable, Sendable {
        /// The attribute's value (externally stored values are read from their files).
        case attribute(String)
        /// How many objects a to-many relationship holds, as `.integer` (Core Data: an
        /// `NSExpressionDescription` with `count:`), counted by the store without reading them.
        case count(String)
        /// Whether the attribute has a value, as `.bool`, without reading the value (an image
        /// stays on disk).
        case hasValue(String)
        /// The primary keys of the objects a to-many relationship holds, read by the store in the
        /// same statement (`PropertyRow.memberKeys(at:)`; the value itself is nil): a list shows
        /// each row's tags without a query per row.
        case memberKeys(String)
    }

    /// Objects whose to-many relationship holds at least one of the given objects (Core Data's
    /// `ANY tags IN %@`), answered by the store through the relationship's join table or foreign
    /// key, so its index finds them without reading every row.
    public struct RelatedObjects: Equatable, Sendable {
        public var relationship: String
        public var primaryKeys: [Int64]

        public init(relationship: String, primaryKeys: [Int64]) {
            self.relationship = relationship
            self.primaryKeys = primaryKeys
        }
    }

    /// The entity whose objects are read.
    public var entityName: String
    /// The values of each row, in the order the results give them.
    public var properties: [Property]
    /// Which objects to read; nil reads all (compiled to SQL, never evaluated in memory).
    public var predicate: ObjectPredicate?
    /// Only the objects with these primary keys; nil for all. Each key is one bound value of the
    /// statement, so ask for at most a few thousand at a time (SQLite refuses more than 32,766).
    public var primaryKeys: [Int64]?
    /// Only the objects related to these (nil for all); with a predicate, both must hold.
    public var relatedTo: RelatedObjects?
    /// Ties go by primary key, in the direction of the last descriptor.
    public var sortDescriptors: [SortDescriptor]
    /// At most this many rows; nil for all.
    public var fetchLimit: Int?
    /// Rows to skip first, for reading a long list a window at a time.
    public var fetchOffset: Int
    /// Whether objects of sub-entities are read too (Core Data's default, true).
    public var includesSubentities: Bool
    /// Values for `$variables` in the predicate.
    public var substitutionVariables: [String: AttributeValue?]

    /// A request for `properties` of `entityName`'s objects; the defaults read every object.
    public init(entityName: String, properties: [Property], predicate: ObjectPredicate? = nil, primaryKeys: [Int64]? = nil,
                sortDescriptors: [SortDescriptor] = [], fetchLimit: Int? = nil, fetchOffset: Int = 0,
                includesSubentities: Bool = true, substitutionVariables: [String: AttributeValue?] = [:]) {
        self.entityName = entityName
        self.properties = properties
        self.predicate = predicate
        self.primaryKeys = primaryKeys
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.includesSubentities = includesSubentities
        self.substitutionVariables = substitutionVariables
    }
}

/// One result of a `PropertyFetchRequest`: which object, and the requested values in the order
/// the request lists its properties (nil where an attribute has no value).
public struct PropertyRow: Sendable {
    /// The object's own entity (a sub-entity's name when the request includes sub-entities).
    public let entityName: String
    /// The object's `Z_PK`.
    public let primaryKey: Int64
    /// The requested values, in the request's order; nil where an attribute has no value.
    public let values: [AttributeValue?]
    /// The member keys of each `.memberKeys` property, by its position among the properties.
    let members: [Int: [Int64]]

    /// The keys a `.memberKeys` property at `index` read, in ascending order; empty for any other.
    public func memberKeys(at index: Int) -> [Int64] { members[index] ?? [] }

    /// The object's ID, to fetch the whole object when the row is not enough.
    public var objectID: ObjectID { ObjectID(entityName: entityName, primaryKey: primaryKey) }
}
