/// A fetch index: an ordered list of properties the store indexes together.
public struct FetchIndexDescription: Equatable, Sendable {
    /// One indexed property and its direction.
    public struct Element: Equatable, Sendable {
        /// The property's name.
        public var property: String
        /// Whether the index sorts this property upwards.
        public var isAscending: Bool

        /// An element of an index on `property`.
        public init(property: String, isAscending: Bool = true) {
            self.property = property
            self.isAscending = isAscending
        }
    }

    /// The index's name; the store's index is named after the entity and this.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [Element]

    /// A fetch index from its parts.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

/// One entity of a model version, holding only its own (not inherited) properties.
///
/// Inheritance is resolved through the owning `ManagedObjectModel`, which knows every entity.
public struct EntityDescription: Equatable, Sendable {
    /// The entity's name, its key in fetches and the base of its table name (`Z` + upper-cased).
    public var name: String
    /// The class the app uses for the entity's objects, as the model names it.
    public var className: String?
    /// The parent entity's name: a sub-entity shares its root entity's table.
    public var parentName: String?
    /// Whether objects of exactly this entity may not be made (only of its sub-entities).
    public var isAbstract: Bool
    /// The renaming identifier (`elementID`).
    public var renamingIdentifier: String?
    /// Changes the version hash without a schema change, so a migration runs.
    public var versionHashModifier: String?
    /// The entity's own attributes, in declaration order.
    public var attributes: [AttributeDescription]
    /// The entity's own relationships, in declaration order.
    public var relationships: [RelationshipDescription]
    /// Each constraint is a list of property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    /// The indexes the store creates for the entity.
    public var fetchIndexes: [FetchIndexDescription]
    /// Free-form settings from the model file, kept for the app.
    public var userInfo: [String: String]

    /// An entity from its parts; the defaults are Xcode's for a new entity.
    public init(name: String, className: String? = nil, parentName: String? = nil,
                isAbstract: Bool = false, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, attributes: [AttributeDescription] = [],
                relationships: [RelationshipDescription] = [], uniquenessConstraints: [[String]] = [],
                fetchIndexes: [FetchIndexDescription] = [], userInfo: [String: String] = [:]) {
        self.name = name
        self.className = className
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.userInfo = userInfo
    }

    /// The names of the entity's own attributes and relationships, in declaration order.
    public var ownPropertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name)
    }
}
