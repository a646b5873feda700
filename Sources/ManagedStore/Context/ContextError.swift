/// An error from a managed object context: a refused call, a save that lost a race, a save that
/// failed. Callers match the cases to react (reload on `.conflict`, report the rest).
public enum ContextError: Error, Sendable, CustomStringConvertible {
    /// A call the context refuses: an unknown entity, an abstract one, a wrong key or class.
    case refused(ContextRefusal)
    /// Optimistic locking: the object's row was changed or deleted by another context or process
    /// since it was read. Nothing was written; fetch the object again and redo the change.
    case conflict(entity: String, primaryKey: Int64)
    /// The save's transaction failed (disk, a damaged store…) and was rolled back: nothing was written.
    case saveFailed(cause: any Error)
    /// An object's row or a relationship's members could not be read (a damaged store, a lost
    /// file) while a property was being read. The object stays a fault, so nothing half-read is
    /// ever saved; `checkReads()` and the next `save()` throw this.
    case readFailed(entity: String, primaryKey: Int64?, cause: any Error)
    /// The store refuses writes (`PersistentStore.writeRefusal`); nothing was written.
    case storeIsReadOnly(path: String, reason: WriteRefusal)

    /// One line saying what happened, for the command line and logs.
    public var description: String {
        switch self {
        case .refused(let refusal):
            "\(refusal)"
        case .conflict(let entity, let primaryKey):
            "the save was rolled back, nothing was written: \(entity) \(primaryKey) "
                + "was changed or deleted by someone else since it was read"
        case .saveFailed(let cause):
            "the save was rolled back, nothing was written: \(cause)"
        case .readFailed(let entity, let primaryKey, let cause):
            "could not read \(entity)\(primaryKey.map { " \($0)" } ?? ""): \(cause)"
        case .storeIsReadOnly(let path, let reason):
            "\(path) is read-only, nothing was written: \(reason)"
        }
    }

    /// The one-line description, for callers that show errors as text.
    public var message: String { description }
}

/// A call that names what the model does not have, or asks what cannot be done: nothing was read
/// or written. The cases say what was asked, so callers can react and tests can match them.
public enum ContextRefusal: Equatable, Sendable, CustomStringConvertible {
    /// The model has no entity of this name.
    case noSuchEntity(String)
    /// The entity is abstract: only its sub-entities have objects.
    case abstractEntity(String)
    /// The entity's objects are made by another class than the one asked for.
    case classNotRegistered(entity: String, className: String)
    /// The entity has no stored attribute of this name.
    case noSuchAttribute(entity: String, attribute: String)
    /// The entity has no to-many relationship of this name.
    case noSuchToManyRelationship(entity: String, relationship: String)
    /// A property fetch runs in SQL: its predicate and sort must be expressible there.
    case predicateNotInSQL(entity: String, predicate: String)
    /// A property fetch's sort key cannot be expressed in SQL.
    case sortNotInSQL(entity: String, keyPath: String)
    /// A value of a type the attribute cannot store without a transformer.
    case noValueTransformer(entity: String, attribute: String, valueType: String)
    /// No value transformer is registered under the name the model gives the attribute.
    case noTransformerNamed(String, entity: String, attribute: String)
    /// The text index names an entity or attribute the model does not have.
    case indexedEntityMissing(String)
    /// The text index names an attribute the entity does not store.
    case indexedAttributeMissing(entity: String, attribute: String)
    /// `saveInOneTransaction` called inside another: SQLite has one transaction per connection.
    case alreadyInOneTransaction

    /// What was refused, as one line.
    public var description: String {
        switch self {
        case .noSuchEntity(let entity): "the model has no entity named \(entity)"
        case .abstractEntity(let entity): "entity \(entity) is abstract: insert one of its sub-entities"
        case .classNotRegistered(let entity, let className): "entity \(entity) is not registered with the class \(className)"
        case .noSuchAttribute(let entity, let attribute): "\(entity) has no stored attribute named \(attribute)"
        case .noSuchToManyRelationship(let entity, let relationship): "\(entity) has no to-many relationship named \(relationship)"
        case .predicateNotInSQL(let entity, let predicate): "a property fetch of \(entity) needs a predicate SQL can express: \(predicate)"
        case .sortNotInSQL(let entity, let keyPath): "a property fetch of \(entity) cannot sort by \(keyPath) in SQL"
        case .noValueTransformer(let entity, let attribute, let valueType):
            "\(entity).\(attribute) has no value transformer for a \(valueType)"
        case .noTransformerNamed(let name, let entity, let attribute):
            "no value transformer registered under the name \(name) (\(entity).\(attribute))"
        case .indexedEntityMissing(let entity): "the model has no entity named \(entity) to index"
        case .indexedAttributeMissing(let entity, let attribute): "\(entity) has no stored attribute named \(attribute) to index"
        case .alreadyInOneTransaction: "a save in one transaction is already under way on this context"
        }
    }
}

/// Why a save was refused: names the entity, the property and the reason, like Core Data's
/// validation errors. A save with several problems reports all of them.
public struct ValidationFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// One broken rule: which entity and property, and why.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// The entity of the refused object.
        public var entity: String
        /// The property at fault; nil for a rule of the whole object.
        public var property: String?
        /// What is wrong, in words.
        public var reason: String
        /// The object refused, so a caller can show or select it; nil for problems a migration
        /// finds in a store's rows.
        public var objectID: ObjectID? = nil

        /// `Entity.property: reason`.
        public var description: String {
            "\(entity)\(property.map { ".\($0)" } ?? ""): \(reason)"
        }
    }

    /// Every problem the save found, so one try reports them all.
    public var problems: [Problem]

    /// The problems, joined on one line.
    public var description: String {
        "validation failed: " + problems.map(\.description).joined(separator: "; ")
    }
}
