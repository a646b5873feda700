internal import GRDB

/// One save: validate, then write every change in a single SQLite transaction. Nothing in memory
/// changes unless the transaction commits. Inside `saveInOneTransaction` a save is one batch of
/// that transaction: written, but committed (or rolled back) with the others.
///
/// The transaction is IMMEDIATE: it takes the write lock before reading `Z_MAX` and `Z_OPT`, so
/// two processes saving at once queue on the busy timeout instead of one failing when it tries
/// to upgrade its read to a write ("database is locked").
struct SaveOperation {
    let context: ManagedObjectContext
    let validating: Bool
    private var schema: StoreSchema { context.schema }

    init(context: ManagedObjectContext, validating: Bool) {
        self.context = context
        self.validating = validating
    }

    func run() throws {
        let inserted = context.insertedObjectsList.sorted { $0.insertionSequence < $1.insertionSequence }
        let updated = context.updatedObjectsList.sorted(by: Self.stableOrder)
        let deleted = context.deletedObjectsList.sorted(by: Self.stableOrder)
        if validating {
            let problems = SaveValidation(context: context).problems(inserted: inserted, updated: updated, deleted: deleted)
            guard problems.isEmpty else { throw ValidationFailure(problems: problems) }
        }

        if let refusal = context.store.writeRefusal {
            throw ContextError.storeIsReadOnly(path: context.store.url.path, reason: refusal)
        }
        var permanentIDs: [ObjectID: ObjectID] = [:]
        let externalData = ExternalDataSave(store: context.store)
        let changedKeys = updated.map(\.changedKeys)
        let open = context.openTransaction
        do {
            try context.store.database.writeWithoutTransaction { db in
                guard let open else {
                    return try db.inTransaction(.immediate) {
                        permanentIDs = try write(inserted: inserted, updated: updated, deleted: deleted, changedKeys: changedKeys,
                                                 externalData: externalData, within: nil, in: db)
                        return .commit
                    }
                }
                permanentIDs = try write(inserted: inserted, updated: updated, deleted: deleted, changedKeys: changedKeys,
                                         externalData: externalData, within: open, in: db)
            }
        } catch {
            externalData.didRollBack()
            // Part of this batch may be written: the open transaction can only be rolled back now.
            open?.failure = error
            throw (error as? ContextError) ?? ContextError.saveFailed(cause: error)
        }
        if let open { open.keep(externalData) } else { externalData.didCommit() }
        for object in inserted { object.optimisticVersion = 1 }
        for object in updated { object.optimisticVersion += 1 }
        context.didSave(permanentIDs: permanentIDs)
    }

    /// Every row of the save, its join-table rows and its history, inside the caller's transaction.
    /// - Parameter open: the transaction of `saveInOneTransaction` this save is a batch of.
    private func write(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], changedKeys: [Set<String>],
                       externalData: ExternalDataSave, within open: OpenTransaction?, in db: Database) throws -> [ObjectID: ObjectID] {
        let history = try HistoryRecorder(context: context, deleted: deleted, in: db)
        let permanentIDs = try allocatePrimaryKeys(for: inserted, within: open, in: db)
        let resolve = { (id: ObjectID) -> Int64? in (permanentIDs[id] ?? id).primaryKey }
        for object in inserted { try writeRow(of: object, isNew: true, resolve: resolve, externalData: externalData, in: db) }
        for object in updated { try writeRow(of: object, isNew: false, resolve: resolve, externalData: externalData, in: db) }
        for object in deleted { try deleteRow(of: object, externalData: externalData, in: db) }
        for object in inserted + updated {
            try writeToManyChanges(of: object, resolve: resolve, in: db)
        }
        try history?.record(
            inserted: inserted.compactMap { object in resolve(object.objectID).map { (object.entity.name, $0) } },
            updated: zip(updated, changedKeys).compactMap { object, keys in
                guard !keys.isEmpty, let key = resolve(object.objectID) else { return nil }
                return (object.entity.name, key, keys)
            },
            within: open, in: db)
        return permanentIDs
    }

    private static func stableOrder(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
        a.objectID.description < b.objectID.description
    }

    /// Primary keys are unique across a hierarchy: `Z_MAX` lives on the root entity's row.
    private func allocatePrimaryKeys(for objects: [ManagedObject], within open: OpenTransaction?, in db: Database) throws -> [ObjectID: ObjectID] {
        var mapping: [ObjectID: ObjectID] = [:]
        let byRoot = Dictionary(grouping: objects) { schema.storage(ofModelEntity: $0.entity.name).rootName }
        for (root, members) in byRoot.sorted(by: { $0.key < $1.key }) {
            let rootStorage = schema.storage(ofModelEntity: root)
            let rootNumber = rootStorage.number
            let row = try Row.fetchOne(db, sql: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                                       arguments: [rootNumber])
            var next = try row.flatMap { try context.rowReader($0, table: "Z_PRIMARYKEY").integer("Z_MAX") } ?? 0
            let highest = next
            open?.willGiveOutKeys(after: highest, root: root)
            var reused: Set<Int64> = []
            for object in members {
                if let wanted = object.requestedPrimaryKey, wanted >= 1, wanted <= highest, !reused.contains(wanted),
                   try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(rootStorage.tableName) WHERE Z_PK = ?)", arguments: [wanted]) ?? true) {
                    reused.insert(wanted)
                    mapping[object.objectID] = ObjectID(entityName: object.entity.name, primaryKey: wanted)
                    continue
                }
                next = try incremented(next, table: "Z_PRIMARYKEY", column: "Z_MAX")
                mapping[object.objectID] = ObjectID(entityName: object.entity.name, primaryKey: next)
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [next, rootNumber])
        }
        return mapping
    }

    private func writeRow(of object: ManagedObject, isNew: Bool, resolve: (ObjectID) -> Int64?,
                          externalData: ExternalDataSave, in db: Database) throws {
        let storage = schema.storage(ofModelEntity: object.entity.name)
        guard let primaryKey = resolve(object.objectID) else { return }
        // An update writes only what changed (as GRDB's updateChanges): a title edit does not
        // re-encode and rewrite an image in the same row.
        let changed = isNew ? nil : object.changedKeys
        let attributes = context.info(for: storage.name).attributes.filter { changed?.contains($0.key) ?? true }
        let storedRow = isNew ? nil : try externalData.storedRow(
            of: storage.tableName, primaryKey: primaryKey,
            columns: ExternalDataSave.taggedColumns(of: storage, attributes: attributes), in: db)
        var columns: [String] = []
        var values: [DatabaseValue] = []
        for (name, column) in storage.attributeColumns.sorted(by: { $0.value.name < $1.value.name }) {
            // A derived attribute's value is the store's to keep (its triggers), never written by a save.
            guard let attribute = attributes[name], !attribute.isDerived else { continue }
            columns.append(column.name)
            values.append(try externalData.columnValue(of: object, attribute: attribute, column: column.name,
                                                       storedRow: storedRow))
        }
        for (name, foreignKey) in storage.toOneColumns.sorted(by: { $0.value.key.name < $1.value.key.name })
            where changed?.contains(name) ?? true {
            let target = object.toOneTargets[name]
            columns.append(foreignKey.key.name)
            values.append(target.flatMap(resolve)?.databaseValue ?? .null)
            if let entityColumn = foreignKey.entity {
                columns.append(entityColumn.name)
                values.append(target.flatMap { schema.entity(named: $0.entityName)?.number }?.databaseValue ?? .null)
            }
        }
        if isNew {
            let names = (["Z_PK", "Z_ENT", "Z_OPT"] + columns).map(\.sqlIdentifier)
            let row = [primaryKey.databaseValue, storage.number.databaseValue, 1.databaseValue] + values
            // One prepared statement per table and column set, reused for every row of the save:
            // building and compiling the SQL again for each of 20,000 rows was a save's largest cost.
            let sql = "INSERT INTO \(storage.tableName.sqlIdentifier) (\(names.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(row))
        } else {
            let version = try incremented(object.optimisticVersion, table: storage.tableName, column: "Z_OPT")
            let assignments = zip(columns + ["Z_OPT"], values + [version.databaseValue])
                .map { column, value -> SQL in "\(coreDataName: column) = \(value)" }.joined(separator: ", ")
            try db.execute(literal: """
                UPDATE \(coreDataName: storage.tableName) SET \(assignments) WHERE Z_PK = \(primaryKey) AND Z_OPT = \(object.optimisticVersion)
                """)
            guard db.changesCount == 1 else {
                throw ContextError.conflict(entity: object.entity.name, primaryKey: primaryKey)
            }
        }
    }

    /// A counter read from the store plus one; a counter already at its largest value is a
    /// damaged or hand-edited store, refused rather than wrapped around.
    private func incremented(_ value: Int64, table: String, column: String) throws -> Int64 {
        let (next, overflow) = value.addingReportingOverflow(1)
        guard !overflow else {
            throw StoreError(path: context.store.url.path, mismatch: .exhaustedCounter(table: table, column: column))
        }
        return next
    }

    private func deleteRow(of object: ManagedObject, externalData: ExternalDataSave, in db: Database) throws {
        guard let primaryKey = object.objectID.primaryKey else { return }
        let storage = schema.storage(ofModelEntity: object.entity.name)
        let tagged = ExternalDataSave.taggedColumns(of: storage, attributes: context.info(for: storage.name).attributes)
        externalData.rowWillBeDeleted(try externalData.storedRow(of: storage.tableName, primaryKey: primaryKey,
                                                                 columns: tagged, in: db), columns: tagged)
        try db.execute(literal: "DELETE FROM \(coreDataName: storage.tableName) WHERE Z_PK = \(primaryKey)")
        for case .joinTable(let table, let ownerColumn, _, _, _) in storage.toManyStorage.values {
            try db.execute(literal: "DELETE FROM \(coreDataName: table) WHERE \(coreDataName: ownerColumn) = \(primaryKey)")
        }
    }

    /// Join-table rows for many-to-many changes, and positions for ordered relationships.
    private func writeToManyChanges(of object: ManagedObject, resolve: (ObjectID) -> Int64?, in db: Database) throws {
        let storage = schema.storage(ofModelEntity: object.entity.name)
        guard let owner = resolve(object.objectID) else { return }
        for (name, added) in object.unloadedAdditions {
            // Only unordered relationships take members unloaded; one stored by the members'
            // foreign key is written from their side.
            guard case .joinTable(let tableName, let ownerName, let memberName, _, _)? = storage.toManyStorage[name] else { continue }
            for member in added {
                guard let key = resolve(member) else { continue }
                try insertLink(into: tableName, owner: (ownerName, owner), member: (memberName, key), in: db)
            }
        }
        for (name, members) in object.toManyMembers where members != object.committedToManyMembers[name] {
            let before = Set(object.committedToManyMembers[name] ?? [])
            switch storage.toManyStorage[name] {
            case .joinTable(let tableName, let ownerName, let memberName, _, let orderName)?:
                let (table, ownerColumn, memberColumn): (SQL, SQL, SQL) =
                    ("\(coreDataName: tableName)", "\(coreDataName: ownerName)", "\(coreDataName: memberName)")
                for removed in before.subtracting(members) {
                    guard let key = resolve(removed) else { continue }
                    try db.execute(literal: "DELETE FROM \(table) WHERE \(ownerColumn) = \(owner) AND \(memberColumn) = \(key)")
                }
                for (position, member) in members.enumerated() {
                    // Rows of members it had are there already: adding one note to a tag on
                    // 100,000 notes writes one row, not 100,000 (an ordered list renumbers all).
                    guard orderName != nil || !before.contains(member), let key = resolve(member) else { continue }
                    try insertLink(into: tableName, owner: (ownerName, owner), member: (memberName, key), in: db)
                    if let orderName {
                        try db.execute(literal: """
                            UPDATE \(table) SET \(coreDataName: orderName) = \(position + 1) WHERE \(ownerColumn) = \(owner) AND \(memberColumn) = \(key)
                            """)
                    }
                }
            case .inverseForeignKey(let table, _, _, let orderColumn?)?:
                for (position, member) in members.enumerated() {
                    guard let key = resolve(member) else { continue }
                    try db.execute(literal: "UPDATE \(coreDataName: table) SET \(coreDataName: orderColumn) = \(position + 1) WHERE Z_PK = \(key)")
                }
            default:
                continue
            }
        }
    }

    /// A join-table row, unless it is there already (one prepared statement per table).
    private func insertLink(into table: String, owner: (column: String, key: Int64), member: (column: String, key: Int64), in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table.sqlIdentifier) (\(owner.column.sqlIdentifier), \(member.column.sqlIdentifier)) VALUES (?, ?)")
            .execute(arguments: [owner.key, member.key])
    }
}
