/// One attribute of an entity, as a model version declares it.
public struct AttributeDescription: Equatable, Sendable {
    /// The attribute's name, its key in objects and the base of its column name (`Z` + upper-cased).
    public var name: String
    /// The value type, which decides the column type and how values are coded.
    public var type: AttributeType
    /// Whether a save accepts the attribute without a value.
    public var isOptional: Bool
    /// Whether the value lives in memory only: no column, and no part in the version hash.
    public var isTransient: Bool
    /// The typed default value (`defaultValueString`, or `defaultDateTimeInterval` for dates).
    public var defaultValue: AttributeValue?
    /// The name a value transformer is registered under, for Transformable attributes.
    public var valueTransformerName: String?
    /// The class a Transformable value decodes to, as named in the model (informative only).
    public var customClassName: String?
    /// The renaming identifier (`elementID`): how a migration recognises a renamed attribute.
    public var renamingIdentifier: String?
    /// Changes the version hash without a schema change, so a migration runs.
    public var versionHashModifier: String?
    /// Whether large values may live in files beside the store (`_EXTERNAL_DATA`).
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether persistent history keeps the value in a deleted object's tombstone.
    public var preservesValueAfterDeletion: Bool
    /// Whether the store keeps an index on the column, for fetches sorted or filtered by it.
    public var isIndexed: Bool
    /// The model's minimum value (or length) as written (`minValueString`); kept, not enforced on save.
    public var minValue: String?
    /// The model's maximum value (or length) as written (`maxValueString`); kept, not enforced on save.
    public var maxValue: String?
    /// Whether the value is computed by the store (triggers) from `derivationExpression`.
    public var isDerived: Bool
    /// The expression a derived attribute is computed by (`title.lowercase:`, `attachments.@count`).
    public var derivationExpression: String?
    /// Free-form settings from the model file, kept for the app.
    public var userInfo: [String: String]

    /// An attribute from its settings; the defaults are Xcode's for a new attribute.
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
