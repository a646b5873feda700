/// `$entityMapping` in expressions: the mapping's names and user info.
final class EntityMappingValues: KeyValueReadable {
    let mapping: EntityMapping

    init(_ mapping: EntityMapping) {
        self.mapping = mapping
    }

    func expressionValue(forKey key: String) throws -> ExpressionValue {
        switch key {
        case "name": return .scalar(.string(mapping.name))
        case "sourceEntityName": return ExpressionValue(mapping.sourceEntityName.map(AttributeValue.string))
        case "destinationEntityName": return ExpressionValue(mapping.destinationEntityName.map(AttributeValue.string))
        default: return ExpressionValue(mapping.userInfo[key].map(AttributeValue.string))
        }
    }
}
