/// What happens to related objects when an object is deleted.
public enum DeleteRule: String, Sendable, Codable, CaseIterable {
    case nullify = "Nullify"
    case cascade = "Cascade"
    case deny = "Deny"
    case noAction = "No Action"
}

/// One relationship of an entity, as a model version declares it.
public struct RelationshipDescription: Equatable, Sendable {
    public var name: String
    public var destinationEntityName: String
    public var inverseName: String?
    public var isOptional: Bool
    public var isTransient: Bool
    public var isToMany: Bool
    public var isOrdered: Bool
    /// 0 means no lower bound.
    public var minCount: Int
    /// 0 means unbounded; a to-one relationship has 1.
    public var maxCount: Int
    public var deleteRule: DeleteRule
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String]

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
