/// One attribute of an entity, as a model version declares it.
public struct AttributeDescription: Equatable, Sendable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    /// The typed default value (`defaultValueString`, or `defaultDateTimeInterval` for dates).
    public var defaultValue: AttributeValue?
    /// The name a value transformer is registered under, for Transformable attributes.
    public var valueTransformerName: String?
    public var customClassName: String?
    /// The renaming identifier (`elementID`): how a migration recognises a renamed attribute.
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var allowsExternalBinaryDataStorage: Bool
    public var preservesValueAfterDeletion: Bool
    public var isIndexed: Bool
    public var minValue: String?
    public var maxValue: String?
    public var isDerived: Bool
    public var derivationExpression: String?
    public var userInfo: [String: String]

    public init(name: String, type: AttributeType, isOptional: Bool = false, isTransient: Bool = false,
                defaultValue: AttributeValue? = nil, valueTransformerName: String? = nil,
                customClassName: String? = nil, renamingIdentifier: String? = nil,
                versionHashModifier: String? = nil, allowsExternalBinaryDataStorage: Bool = false,
                preservesValueAfterDeletion: Bool = false, isIndexed: Bool = false,
                minValue: String? = nil, maxValue: String? = nil, isDerived: Bool = false,
                derivationExpression: String? = nil, userInfo: [String: String] = [:]) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preservesValueAfterDeletion = preservesValueAfterDeletion
        self.isIndexed = isIndexed
        self.minValue = minValue
        self.maxValue = maxValue
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.userInfo = userInfo
    }
}
