/// What happens to related objects when an object is deleted.
public enum DeleteRule: String, Sendable, Codable, CaseIterable {
    /// The related objects stay; their inverse no longer points back.
    case nullify = "Nullify"
    /// The related objects are deleted too.
    case cascade = "Cascade"
    /// The delete is refused at save while related objects remain.
    case deny = "Deny"
    /// Nothing is done: the inverse is left pointing at the deleted object.
    case noAction = "No Action"
}

/// One relationship of an entity, as a model version declares it.
public struct RelationshipDescription: Equatable, Sendable {
    /// The relationship's name, its key in objects and the base of its column names.
    public var name: String
    /// The entity whose objects the relationship points to.
    public var destinationEntityName: String
    /// The relationship on the other side; the context keeps both sides consistent through it.
    public var inverseName: String?
    /// Whether a save accepts the relationship empty.
    public var isOptional: Bool
    /// Whether it lives in memory only: nothing stored, no part in the version hash.
    public var isTransient: Bool
    /// Whether it holds several objects (a join table or the other side's foreign key) or one.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its members' order (an order column).
    public var isOrdered: Bool
    /// 0 means no lower bound.
    public var minCount: Int
    /// 0 means unbounded; a to-one relationship has 1.
    public var maxCount: Int
    /// What deleting an object does to the objects it points to.
    public var deleteRule: DeleteRule
    /// The renaming identifier (`elementID`): how a migration recognises a renamed relationship.
    public var renamingIdentifier: String?
    /// Changes the version hash without a schema change, so a migration runs.
    public var versionHashModifier: String?
    /// Free-form settings from the model file, kept for the app.
    public var userInfo: [String: String]

    /// A relationship from its settings; a nil `maxCount` is 1 for to-one and unbounded for to-many.
    public init(name: String, destinationEntityName: String, inverseName: String? = nil,
                isOptional: Bool = true, isTransient: Bool = false, isToMany: Bool = false,
                isOrdered: Bool = false, minCount: Int = 0, maxCount: Int? = nil,
                deleteRule: DeleteRule = .nullify, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, userInfo: [String: String] = [:]) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.deleteRule = deleteRule
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }
}
