import Foundation

/// An object of an entity, living in a context: values by property name, relationships kept
/// consistent on both sides.
///
/// Use it directly (untyped, for tools and migrations) or subclass it with the property wrappers
/// of `TypedProperties.swift` for an app's entities. A fetched object may be a fault: its row is
/// read the first time one of its values is needed.
open class ManagedObject: KeyValueReadable, CustomStringConvertible {
    /// The object's entity in the context's model.
    public let entity: EntityDescription
    /// The object's identity; temporary until its first save gives it a primary key.
    public internal(set) var objectID: ObjectID
    /// The context that owns the object; weak, so an object kept by the app does not keep its context.
    public private(set) weak var managedObjectContext: ManagedObjectContext?

    var isFault: Bool
    var values: [String: AttributeValue] = [:]
    var committedValues: [String: AttributeValue] = [:]
    var toOneTargets: [String: ObjectID] = [:]
    var committedToOneTargets: [String: ObjectID] = [:]
    /// To-many members, loaded on first use.
    var toManyMembers: [String: [ObjectID]] = [:]
    /// The same members as sets, made on the first add to a relationship, so that adding to one
    /// of many members (a tag on 100,000 notes) does not search the list. Whoever replaces
    /// `toManyMembers` other than by `primitiveAdd` and `primitiveRemove` empties this.
    var toManyMemberSets: [String: Set<ObjectID>] = [:]
    var committedToManyMembers: [String: [ObjectID]] = [:]
    /// Members added to an unordered to-many relationship whose members were not loaded: kept
    /// apart, so adding a note to a tag on 100,000 notes does not read them all (an import adds
    /// thousands); merged into the members when they are loaded, written by the next save.
    var unloadedAdditions: [String: Set<ObjectID>] = [:]
    /// Order of insertion into the context: new rows get primary keys in this order.
    var insertionSequence = 0
    /// For an inserted object: the primary key it asks to have again (`insertObject(entityName:reusingPrimaryKey:)`).
    var requestedPrimaryKey: Int64?
    /// `Z_OPT`: how many times the row has been saved.
    var optimisticVersion: Int64 = 0
    /// Problems met while setting values (unknown keys, values a transformer refused), by key;
    /// reported when saving, since setters cannot throw.
    var settingProblems: [String: String] = [:]

    /// Made by the context only (`insertObject`, fetches): `required` so typed subclasses can be made from their type.
    public required init(entity: EntityDescription, objectID: ObjectID, context: ManagedObjectContext,
                         isFault: Bool) {
        self.entity = entity
        self.objectID = objectID
        self.managedObjectContext = context
        self.isFault = isFault
    }

    /// Called once when the object is inserted; override to set initial values.
    open func awakeFromInsert() {}

    // MARK: Attributes

    /// An attribute's value, reading the row first when the object is a fault.
    public func value(forKey key: String) -> AttributeValue? {
        fulfill()
        return values[key]
    }

    /// Sets an attribute's value. Type and requiredness are checked when saving.
    public func setValue(_ value: AttributeValue?, forKey key: String) {
        fulfill()
        guard attribute(named: key) != nil else {
            settingProblems[key] = "the entity has no such attribute"
            managedObjectContext?.noteChanged(self)
            return
        }
        settingProblems[key] = nil
        guard values[key] != value else { return }
        values[key] = value
        managedObjectContext?.noteChanged(self)
    }

    /// A Transformable attribute's value, decoded by its registered value transformer.
    public func transformedValue(forKey key: String) throws -> Any? {
        guard let stored = value(forKey: key) else { return nil }
        guard case .data(let bytes) = stored else { return stored }
        return try transformer(forKey: key).map { try $0.decode(bytes) } ?? bytes
    }

    /// Encodes a value with the attribute's registered value transformer and stores the bytes.
    public func setTransformedValue(_ value: Any?, forKey key: String) throws {
        guard let value else { return setValue(nil, forKey: key) }
        if let transformer = try transformer(forKey: key) {
            setValue(.data(try transformer.encode(value)), forKey: key)
        } else if let bytes = value as? Data {
            setValue(.data(bytes), forKey: key)
        } else {
            throw ContextError.refused(.noValueTransformer(entity: entity.name, attribute: key, valueType: "\(type(of: value))"))
        }
    }

    private func transformer(forKey key: String) throws -> (any AttributeValueTransformer)? {
        guard let name = attribute(named: key)?.valueTransformerName else { return nil }
        guard let transformer = managedObjectContext?.valueTransformers.transformer(named: name) else {
            throw ContextError.refused(.noTransformerNamed(name, entity: entity.name, attribute: key))
        }
        return transformer
    }

    // MARK: Relationships

    /// The object a to-one relationship points to.
    public func object(forKey key: String) -> ManagedObject? {
        fulfill()
        return toOneTargets[key].flatMap { managedObjectContext?.registeredOrFault($0) }
    }

    /// Points a to-one relationship at an object (or nil), updating the inverse on both the old
    /// and the new target.
    public func setObject(_ target: ManagedObject?, forKey key: String) {
        managedObjectContext?.setToOne(target, forKey: key, of: self)
    }

    /// The members of a to-many relationship (in order, for an ordered one).
    public func objects(forKey key: String) -> [ManagedObject] {
        guard let context = managedObjectContext else { return [] }
        return context.memberIDs(forKey: key, of: self).compactMap { context.registeredOrFault($0) }
    }

    /// Adds `member` to a to-many relationship, setting the inverse too.
    public func addObject(_ member: ManagedObject, forKey key: String) {
        managedObjectContext?.addMember(member, forKey: key, of: self)
    }

    /// Removes `member` from a to-many relationship, clearing the inverse too.
    public func removeObject(_ member: ManagedObject, forKey key: String) {
        managedObjectContext?.removeMember(member, forKey: key, of: self)
    }

    // MARK: State

    /// Whether the object is new, not yet saved.
    public var isInserted: Bool { managedObjectContext?.insertedObjects[objectID] != nil }
    /// Whether the object will be deleted by the next save.
    public var isDeleted: Bool { managedObjectContext?.deletedObjects[objectID] != nil }
    /// Whether the object has unsaved changes to its values.
    public var isUpdated: Bool { managedObjectContext?.updatedObjects[objectID] != nil }

    /// The names of attributes and relationships whose values differ from the last save.
    public var changedKeys: Set<String> {
        guard !isFault else { return [] }
        var keys = Set(values.keys).union(committedValues.keys).filter { values[$0] != committedValues[$0] }
        keys.formUnion(Set(toOneTargets.keys).union(committedToOneTargets.keys)
            .filter { toOneTargets[$0] != committedToOneTargets[$0] })
        keys.formUnion(toManyMembers.keys.filter { toManyMembers[$0] != committedToManyMembers[$0] })
        keys.formUnion(unloadedAdditions.keys)
        return keys
    }

    /// Whether the next save would write anything for this object.
    public var hasChanges: Bool { isInserted || isDeleted || !changedKeys.isEmpty }

    // MARK: Key-value reading for expressions

    /// `$source.key` and key paths in expressions: the object's values and related objects.
    public func expressionValue(forKey key: String) throws -> ExpressionValue {
        if attribute(named: key) != nil { return ExpressionValue(value(forKey: key)) }
        guard let relationship = relationship(named: key) else {
            if key == "objectID" || key == "self" { return .object(self) }
            throw ExpressionEvaluationError("entity \(entity.name) has no property \"\(key)\"")
        }
        if relationship.isToMany { return .collection(objects(forKey: key).map { .object($0) }) }
        return object(forKey: key).map { .object($0) } ?? .null
    }

    /// `Entity/p12` and the values read so far, for logs and test failures.
    public var description: String {
        "<\(entity.name) \(objectID)\(isFault ? " fault" : "")>"
    }

    // MARK: Helpers

    func attribute(named key: String) -> AttributeDescription? {
        managedObjectContext?.info(for: entity.name).attributes[key]
    }

    func relationship(named key: String) -> RelationshipDescription? {
        managedObjectContext?.info(for: entity.name).relationships[key]
    }

    func fulfill() {
        if isFault { managedObjectContext?.fulfillFault(self) }
    }

    func detach() {
        managedObjectContext = nil
    }
}
