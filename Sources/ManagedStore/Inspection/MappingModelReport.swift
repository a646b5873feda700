/// A mapping model as Xcode's mapping editor lists it: each entity mapping with its source and
/// destination entities, filter predicate and custom policy, then its attribute and relationship
/// mappings with their value expressions. The walkthrough prints it before each mapping step;
/// `model show X.xcmappingmodel` prints it for any mapping model.
public struct MappingModelReport: Encodable {
    /// The mapping model shown.
    public let mapping: MappingModel

    /// A report of `mapping`.
    public init(_ mapping: MappingModel) {
        self.mapping = mapping
    }

    /// One entity mapping as data: expressions as their text, nil where there is none.
    private struct Entity: Encodable {
        var name: String
        var source: String?
        var destination: String?
        var filter: String?
        var policy: String?
        var attributes: [Property]
        var relationships: [Property]
    }

    private struct Property: Encodable {
        var name: String
        var expression: String?
    }

    private enum CodingKeys: String, CodingKey { case name, entityMappings }

    /// The JSON of `--json`: entity mappings with their expressions as text.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mapping.name, forKey: .name)
        let properties = { (list: [PropertyMapping]) in list.map { Property(name: $0.name, expression: $0.valueExpression.map { "\($0)" }) } }
        try container.encode(mapping.entityMappings.map { entity in
            Entity(name: entity.name, source: entity.sourceEntityName, destination: entity.destinationEntityName,
                   filter: entity.filterPredicate.map { "\($0)" }, policy: entity.policyClassName,
                   attributes: properties(entity.attributeMappings), relationships: properties(entity.relationshipMappings))
        }, forKey: .entityMappings)
    }

    /// The report as lines of text, indented as Xcode's editor nests them.
    public var lines: [String] {
        var lines = ["Mapping model \(mapping.name):"]
        for entity in mapping.entityMappings {
            var line = "  \(entity.name): \(entity.sourceEntityName ?? "-") → \(entity.destinationEntityName ?? "-")"
            if let filter = entity.filterPredicate { line += ", filter \(filter)" }
            if let policy = entity.policyClassName { line += ", policy \(policy)" }
            lines.append(line)
            for attribute in entity.attributeMappings {
                lines.append("    \(attribute.name) = \(attribute.valueExpression.map { "\($0)" } ?? "(default)")")
            }
            for relationship in entity.relationshipMappings {
                lines.append("    \(relationship.name) = \(relationship.valueExpression.map { "\($0)" } ?? "(none)")")
            }
        }
        return lines
    }
}
