import Foundation
package import GRDB

/// A scratchpad of managed objects over one store: insert, fetch, change, delete, then save
/// everything in one transaction or roll it all back.
///
/// One object per row (an identity map); objects without changes are held weakly, so fetching
/// through many rows does not keep them all in memory. Not thread-safe: use one context per thread.
public final class ManagedObjectContext {
    /// The store the context reads from and saves to.
    public let store: PersistentStore
    /// The store's path, for the errors of rows read (made once: `URL.path` builds a new string
    /// each time, which reading a million rows would pay a million times).
    private let storePath: String
    /// The model version the store was opened with.
    public var model: ManagedObjectModel { store.model }
    /// Where each entity and property lives in the store.
    public var schema: StoreSchema { store.schema }
    /// The context's name, recorded with each save in persistent history (Core Data's `name`).
    public var name: String?
    /// Who saves: recorded with each save in persistent history, so readers can tell their own
    /// changes from others' (Core Data's `transactionAuthor`).
    public var transactionAuthor: String?

    private(set) var insertedObjects: [ObjectID: ManagedObject] = [:]
    private(set) var updatedObjects: [ObjectID: ManagedObject] = [:]
    private(set) var deletedObjects: [ObjectID: ManagedObject] = [:]
    private var registered: [ObjectID: WeakObject] = [:]
    private var entityInfos: [String: EntityInfo] = [:]
    private var insertions = 0
    /// The transaction `saveInOneTransaction` holds open, which each save writes a batch into.
    var openTransaction: OpenTransaction?
    /// A read that failed inside a property accessor, not yet thrown by `checkReads()`.
    private var unreportedReadFailure: ContextError?
    private let entityClasses: [String: ManagedObject.Type]
    /// What Transformable attributes are encoded and decoded with (`transformedValue(forKey:)`).
    public let valueTransformers: ValueTransformers

    /// A context on `store`; each thread that reads or saves needs its own.
    /// - Parameter entityClasses: the Swift class to instantiate for each entity that has one
    ///   (an app's typed entities); other entities get plain `ManagedObject`s.
    /// - Parameter store: the store the context reads from and saves to.
    /// - Parameter valueTransformers: the transformers the model's Transformable attributes name.
    public init(store: PersistentStore, entityClasses: [String: ManagedObject.Type] = [:], valueTransformers: ValueTransformers = ValueTransformers()) {
        self.store = store
        self.entityClasses = entityClasses
        self.valueTransformers = valueTransformers
        storePath = store.url.path
    }

    /// Whether a save would write anything.
    public var hasChanges: Bool {
        !insertedObjects.isEmpty || !deletedObjects.isEmpty || updatedObjects.values.contains { !$0.changedKeys.isEmpty }
    }

    /// Objects inserted since the last save.
    public var insertedObjectsList: [ManagedObject] { Array(insertedObjects.values) }
    /// Objects changed since the last save.
    public var updatedObjectsList: [ManagedObject] { Array(updatedObjects.values) }
    /// Objects to be deleted by the next save.
    public var deletedObjectsList: [ManagedObject] { Array(deletedObjects.values) }

    // MARK: Inserting and deleting

    /// Inserts a new object of the entity, with the model's default values, then calls its
    /// `awakeFromInsert()`.
    @discardableResult
    public func insertObject(entityName: String) throws -> ManagedObject {
        guard model.entity(named: entityName) != nil else {
            throw ContextError.refused(.noSuchEntity(entityName))
        }
        let info = info(for: entityName)
        guard !info.description.isAbstract else {
            throw ContextError.refused(.abstractEntity(entityName))
        }
        let object = info.objectClass.init(entity: info.description, objectID: ObjectID(temporaryFor: entityName),
                                           context: self, isFault: false)
        for attribute in info.attributes.values {
            if let value = attribute.defaultValue { object.values[attribute.name] = value }
        }
        register(object)
        insertions += 1
        object.insertionSequence = insertions
        insertedObjects[object.objectID] = object
        object.awakeFromInsert()
        return object
    }

    /// Inserts an object that asks for the primary key an object of its entity's hierarchy had
    /// before it was deleted, so that an undone delete brings a record back under the number
    /// people and scripts know it by. The save gives it that key when no row has it and it was
    /// allocated before (it is at most `Z_MAX`, so a key is never handed out twice at once);
    /// otherwise a new key, as for any insert.
    public func insertObject(entityName: String, reusingPrimaryKey primaryKey: Int64) throws -> ManagedObject {
        let object = try insertObject(entityName: entityName)
        object.requestedPrimaryKey = primaryKey
        return object
    }

    /// Inserts an object of a typed entity class registered for `entityName`.
    public func insert<Object: ManagedObject>(_ type: Object.Type, entityName: String) throws -> Object {
        guard let object = try insertObject(entityName: entityName) as? Object else {
            throw ContextError.refused(.classNotRegistered(entity: entityName, className: "\(Object.self)"))
        }
        return object
    }

    /// Marks the object for deletion at the next save, applying the delete rules of its
    /// relationships now: Cascade deletes the related objects, Nullify removes the object from
    /// their inverse relationships, Deny is checked when saving.
    public func delete(_ object: ManagedObject) {
        guard object.managedObjectContext === self, deletedObjects[object.objectID] == nil else { return }
        object.fulfill()
        if insertedObjects.removeValue(forKey: object.objectID) == nil {
            deletedObjects[object.objectID] = object
            updatedObjects.removeValue(forKey: object.objectID)
        }
        DeleteRules.apply(to: object, in: self)
    }

    // MARK: Saving and rolling back

    /// Writes every change in one transaction: all of it or, on any error, none of it.
    /// - Parameter validating: false skips validation, as Core Data's migrations do while copying
    ///   (they validate the whole store at the end instead).
    public func save(validating: Bool = true) throws {
        try checkReads()
        guard hasChanges else { return }
        try SaveOperation(context: self, validating: validating).run()
    }

    /// Forgets every registered object, to bound memory between batches of a long job. Unsaved
    /// changes are dropped, as by `rollback()`.
    public func reset() {
        rollback()
        for box in registered.values { box.object?.detach() }
        registered = [:]
    }

    /// Forgets every unsaved change: inserted objects leave the context, the others return to
    /// their saved values.
    public func rollback() {
        for object in insertedObjects.values {
            registered.removeValue(forKey: object.objectID)
            object.detach()
        }
        for object in Array(updatedObjects.values) + Array(deletedObjects.values) {
            object.values = object.committedValues
            object.toOneTargets = object.committedToOneTargets
            object.toManyMemberSets = [:]
            object.toManyMembers = object.committedToManyMembers
            object.unloadedAdditions = [:]
            object.settingProblems = [:]
        }
        // Relationship lists cached on unchanged objects may mention rolled-back objects.
        for box in registered.values {
            guard let object = box.object else { continue }
            object.toManyMemberSets = [:]
            object.toManyMembers = object.committedToManyMembers
        }
        insertedObjects = [:]
        updatedObjects = [:]
        deletedObjects = [:]
    }

    /// Called after a successful save: the saved state becomes the committed state.
    func didSave(permanentIDs: [ObjectID: ObjectID]) {
        for (temporary, permanent) in permanentIDs {
            guard let object = insertedObjects[temporary] else { continue }
            registered.removeValue(forKey: temporary)
            object.objectID = permanent
            registered[permanent] = WeakObject(object)
        }
        for box in registered.values {
            guard let object = box.object else { continue }
            object.toOneTargets = object.toOneTargets.mapValues { permanentIDs[$0] ?? $0 }
            object.toManyMemberSets = [:]
            object.toManyMembers = object.toManyMembers.mapValues { $0.map { permanentIDs[$0] ?? $0 } }
        }
        for object in Array(insertedObjects.values) + Array(updatedObjects.values) {
            object.committedValues = object.values
            object.committedToOneTargets = object.toOneTargets
            object.committedToManyMembers = object.toManyMembers
            object.unloadedAdditions = [:]
        }
        for object in deletedObjects.values {
            registered.removeValue(forKey: object.objectID)
            object.detach()
        }
        insertedObjects = [:]
        updatedObjects = [:]
        deletedObjects = [:]
    }

    // MARK: Registration

    /// The registered object for an ID, or a fault that reads its row when first used.
    public func object(with id: ObjectID) -> ManagedObject? {
        registeredOrFault(id)
    }

    /// The object with the ID, its row read now unless it is loaded already: nil when the store
    /// has no such row, an error when the row cannot be read (a damaged store), where
    /// `object(with:)` would hand back a fault that reads as empty.
    public func existingObject(with id: ObjectID) throws -> ManagedObject? {
        if let object = registered[id]?.object, !object.isFault { return object }
        guard let storage = schema.entity(named: id.entityName), let key = id.primaryKey else { return nil }
        let row = try store.database.read { db in
            try Row.fetchOne(db, SQLRequest(literal: "SELECT * FROM \(identifier: storage.tableName) WHERE Z_PK = \(key)"))
        }
        guard let row else { return nil }
        let entity = try rowReader(row, table: storage.tableName).entity(in: schema)
        guard model.entity(entity.name, isKindOf: id.entityName) else { return nil }
        return try object(for: row, entity: entity)
    }

    /// The object registered for an ID, if any is alive.
    func registeredObject(_ id: ObjectID) -> ManagedObject? {
        registered[id]?.object
    }

    func registeredOrFault(_ id: ObjectID) -> ManagedObject? {
        if let object = registered[id]?.object { return object }
        guard model.entity(named: id.entityName) != nil, !id.isTemporary else { return nil }
        let info = info(for: id.entityName)
        let object = info.objectClass.init(entity: info.description, objectID: id, context: self, isFault: true)
        register(object)
        return object
    }

    /// Registers a fetched row: the existing object when there is one (its unsaved changes win),
    /// a new one otherwise.
    func object(for row: Row, entity: EntityStorage) throws -> ManagedObject {
        let id = ObjectID(entityName: entity.name, primaryKey: try rowReader(row, table: entity.tableName).primaryKey())
        if let existing = registered[id]?.object {
            if existing.isFault { try RowDecoding.fill(existing, from: row, storage: entity, context: self) }
            return existing
        }
        let info = info(for: entity.name)
        let object = info.objectClass.init(entity: info.description, objectID: id, context: self, isFault: false)
        try RowDecoding.fill(object, from: row, storage: entity, context: self)
        register(object)
        return object
    }

    /// Reads the bookkeeping columns of a row of this store's table, with errors naming the file.
    /// A checked reader of one row of `table` (see `RowReader`).
    package func rowReader(_ row: Row, table: String) -> RowReader {
        RowReader(row: row, table: table, path: storePath)
    }

    private func register(_ object: ManagedObject) {
        registered[object.objectID] = WeakObject(object)
        if registered.count % 4096 == 0 {
            registered = registered.filter { $0.value.object != nil }
        }
    }

    /// Records that an object's values changed, so the next save writes it.
    func noteChanged(_ object: ManagedObject) {
        let id = object.objectID
        guard insertedObjects[id] == nil, deletedObjects[id] == nil else { return }
        updatedObjects[id] = object
    }

    /// Reads a fault's row. A row deleted meanwhile leaves the object empty; a row that cannot be
    /// read leaves it a fault and is kept for `checkReads()` (property accessors cannot throw).
    func fulfillFault(_ object: ManagedObject) {
        guard let storage = schema.entity(named: object.entity.name), let key = object.objectID.primaryKey else {
            object.isFault = false
            return
        }
        object.isFault = false
        do {
            try store.database.read { db in
                if let row = try Row.fetchOne(db, SQLRequest(literal: "SELECT * FROM \(identifier: storage.tableName) WHERE Z_PK = \(key)")) {
                    try RowDecoding.fill(object, from: row, storage: storage, context: self)
                }
            }
        } catch {
            object.isFault = true
            recordReadFailure(.readFailed(entity: object.entity.name, primaryKey: key, cause: error))
        }
    }

    /// Keeps the first read that failed inside a property accessor until `checkReads()` reports it.
    func recordReadFailure(_ failure: ContextError) {
        if unreportedReadFailure == nil { unreportedReadFailure = failure }
    }

    /// Throws the first read that failed inside a property accessor (a fault whose row, or a
    /// relationship whose members, could not be read) since the last call, then forgets it.
    /// Accessors keep Core Data's non-throwing shape, so callers that build values from objects
    /// call this afterwards; `save()` calls it first, so nothing half-read is written back.
    public func checkReads() throws {
        guard let failure = unreportedReadFailure else { return }
        unreportedReadFailure = nil
        throw failure
    }

    /// What the context knows of an entity of its model. Callers name entities the model has
    /// (inserts and object IDs are checked against it first, fetched rows come from its
    /// schema), so a miss is a programming error and traps saying so.
    func info(for entityName: String) -> EntityInfo {
        if let known = entityInfos[entityName] { return known }
        guard let description = model.entity(named: entityName) else { preconditionFailure("the model has no entity \(entityName)") }
        let info = EntityInfo(
            description: description,
            storage: schema.storage(ofModelEntity: entityName),
            attributes: Dictionary(uniqueKeysWithValues: model.allAttributes(of: entityName).map { ($0.name, $0) }),
            relationships: Dictionary(uniqueKeysWithValues: model.allRelationships(of: entityName).map { ($0.name, $0) }),
            objectClass: entityClasses[entityName] ?? ManagedObject.self)
        entityInfos[entityName] = info
        return info
    }
}

/// What the context needs to know about an entity, looked up once.
struct EntityInfo {
    let description: EntityDescription
    let storage: EntityStorage
    let attributes: [String: AttributeDescription]
    let relationships: [String: RelationshipDescription]
    let objectClass: ManagedObject.Type
}

final class WeakObject {
    weak var object: ManagedObject?

    init(_ object: ManagedObject) {
        self.object = object
    }
}
