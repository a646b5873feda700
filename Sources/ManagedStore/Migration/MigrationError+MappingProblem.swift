extension MigrationError {
    /// Why a mapping model or a migration policy cannot make the destination, as a case callers
    /// and tests match rather than wording to search. Each case keeps the names and numbers its
    /// message gives; `description` makes the words a user reads.
    public enum MappingProblem: Equatable, Sendable, CustomStringConvertible {
        /// An entity mapping reads an entity the source model does not have.
        case unknownSourceEntity(mapping: String, entity: String, model: String)
        /// An entity mapping makes an entity the destination model does not have.
        case unknownDestinationEntity(mapping: String, entity: String, model: String)
        /// A policy asked for an entity mapping the mapping model does not have.
        case noSuchEntityMapping(String)
        /// The store holds objects of an entity no entity mapping reads: they would be lost.
        case unmappedObjects(mappingModel: String, entity: String, count: Int)
        /// An attribute's expression gave objects where a value is stored.
        case expressionGaveObjects(entity: String, key: String)
        /// A relationship's expression gave something other than objects.
        case expressionGaveNoObjects(entity: String, key: String)
        /// A relationship is set that the destination entity does not have.
        case noSuchRelationship(entity: String, key: String)
        /// An argument of a policy's SQL function gave objects where a value is passed.
        case argumentGaveObjects(mapping: String, attribute: String, function: String)
        /// A policy that copies through attribute mappings met an entity mapping without any.
        case noAttributeMappings(mapping: String, neededTo: String)
        /// An attribute mapping without the value expression a policy evaluates.
        case noValueExpression(mapping: String, attribute: String)
        /// A row of an association table names no object of the store (a damaged entity number).
        case associationNamesNoObject(store: String, entityMapping: Int, entityNumber: Int64?)
        /// The in-place migration declined a step the plan said it would take.
        case inPlaceStepDeclined

        /// The problem in the words a user reads (the only place they are made).
        public var description: String {
            switch self {
            case .unknownSourceEntity(let mapping, let entity, let model):
                "entity mapping \(mapping) reads entity \(entity), which \(model) does not have"
            case .unknownDestinationEntity(let mapping, let entity, let model):
                "entity mapping \(mapping) makes entity \(entity), which \(model) does not have"
            case .noSuchEntityMapping(let name): "the mapping model has no entity mapping named \(name)"
            case .unmappedObjects(let mappingModel, let entity, let count):
                "\(mappingModel) reads no \(entity) objects, and the store holds \(count): they would be lost; "
                    + "add an entity mapping for \(entity)"
            case .expressionGaveObjects(let entity, let key): "\(entity).\(key): the mapping's expression gave objects, not a value"
            case .expressionGaveNoObjects(let entity, let key): "\(entity).\(key): the mapping's expression gave no objects"
            case .noSuchRelationship(let entity, let key): "\(entity) has no relationship \(key)"
            case .argumentGaveObjects(let mapping, let attribute, let function):
                "\(mapping).\(attribute): an argument of \(function) gave objects, not a value"
            case .noAttributeMappings(let mapping, let neededTo):
                "\(mapping) has no attribute mappings: the policy needs them to \(neededTo)"
            case .noValueExpression(let mapping, let attribute): "\(mapping).\(attribute) has no value expression"
            case .associationNamesNoObject(let store, let index, let number):
                "\(store): the association of entity mapping \(index) names no object (entity \(number.map(String.init) ?? "NULL"))"
            case .inPlaceStepDeclined: "the in-place migration declined a step it had planned"
            }
        }
    }
}
