/// A fetch index: an ordered list of properties the store indexes together.
public struct FetchIndexDescription: Equatable, Sendable {
    public struct Element: Equatable, Sendable {
        public var property: String
        public var isAscending: Bool

        public init(property: String, isAscending: Bool = true) {
            self.property = property
            self.isAscending = isAscending
        }
    }

    public var name: String
    public var elements: [Element]

    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

/// One entity of a model version, holding only its own (not inherited) properties.
///
/// Inheritance is resolved through the owning `ManagedObjectModel`, which knows every entity.
public struct EntityDescription: Equatable, Sendable {
    public var name: String
    public var className: String?
    public var parentName: String?
    public var isAbstract: Bool
    /// The renaming identifier (`elementID`).
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var attributes: [AttributeDescription]
    public var relationships: [RelationshipDescription]
    /// Each constraint is a list of property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    public var fetchIndexes: [FetchIndexDescription]
    public var userInfo: [String: String]

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
