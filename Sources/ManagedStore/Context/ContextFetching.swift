internal import GRDB

/// Fetching: SQL does the filtering, sorting and windowing whenever it can; what SQL cannot
/// express, and objects changed but not yet saved, are handled in memory on top.
extension ManagedObjectContext {
    /// The objects the request matches, from the store and the context's unsaved changes.
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        let plan = try FetchPlan(request: request, context: self)
        if plan.needsMemoryPass {
            return try plan.window(plan.sortedInMemory(plan.mergedWithPendingChanges(try plan.fetchRows(windowed: false))))
        }
        return try plan.fetchRows(windowed: true)
    }

    /// Fetches objects of a typed entity class.
    public func fetch<Object: ManagedObject>(_ request: FetchRequest, as type: Object.Type) throws -> [Object] {
        try fetch(request).compactMap { $0 as? Object }
    }

    /// How many objects the request matches, counted in SQL when nothing unsaved affects it.
    public func count(_ request: FetchRequest) throws -> Int {
        let plan = try FetchPlan(request: request, context: self)
        if plan.needsMemoryPass { return try fetch(request).count }
        return try store.database.read { db in
            try Int.fetchOne(db, SQLRequest(literal: "SELECT COUNT(*) FROM (SELECT t0.Z_PK FROM \(plan.fromWhere)\(plan.limitClause))")) ?? 0
        }
    }

    /// Results that read only the keys up front and the rows batch by batch as they are used,
    /// so a list of 100,000 notes never loads them all. Reflects the saved state of the store
    /// when unsaved changes touch the entity, it falls back to a plain fetch.
    public func fetchBatched(_ request: FetchRequest) throws -> FetchedResults {
        let plan = try FetchPlan(request: request, context: self)
        if plan.needsMemoryPass {
            return FetchedResults(objects: try fetch(request))
        }
        let ids = try store.database.read { db -> [ObjectID] in
            // An entity without sub-entities needs only the keys: no row objects, which matters
            // for 100,000 of them.
            if plan.entity.kindNumbers.count == 1 {
                let name = plan.entity.name
                return try Int64.fetchAll(db, SQLRequest(literal: "SELECT t0.Z_PK FROM \(plan.fromWhere)\(plan.orderClause)\(plan.limitClause)"))
                    .map { ObjectID(entityName: name, primaryKey: $0) }
            }
            return try Row.fetchAll(db, SQLRequest(literal: "SELECT t0.Z_PK, t0.Z_ENT FROM \(plan.fromWhere)\(plan.orderClause)\(plan.limitClause)"))
                .map { row in try rowReader(row, table: plan.entity.tableName).objectID(in: schema) }
        }
        return FetchedResults(ids: ids, batchSize: max(request.fetchBatchSize, 1), context: self)
    }

    /// Materializes the rows of the given IDs (one query per table), registering them.
    func materialize(_ ids: [ObjectID]) throws -> [ManagedObject] {
        var loaded: [ObjectID: ManagedObject] = [:]
        var missing: [String: [Int64]] = [:]
        for id in ids {
            if let object = registeredIfLoaded(id) {
                loaded[id] = object
            } else if let key = id.primaryKey, let table = schema.entity(named: id.entityName)?.tableName {
                missing[table, default: []].append(key)
            }
        }
        for (table, keys) in missing {
            let rows = try store.database.read { db in
                try Row.fetchAll(db, SQLRequest(literal: "SELECT * FROM \(identifier: table) WHERE Z_PK IN \(keys)"))
            }
            for row in rows {
                let entity = try rowReader(row, table: table).entity(in: schema)
                let object = try object(for: row, entity: entity)
                loaded[object.objectID] = object
            }
        }
        return ids.compactMap { loaded[$0] }
    }

    private func registeredIfLoaded(_ id: ObjectID) -> ManagedObject? {
        guard let object = registeredObject(id), !object.isFault else { return nil }
        return object
    }
}

/// How one fetch request runs against this store.
struct FetchPlan {
    let request: FetchRequest
    let context: ManagedObjectContext
    let entity: EntityStorage
    let evaluator: ExpressionEvaluator
    /// `<table> t0 WHERE …` with the SQL part of the predicate.
    let fromWhere: SQL
    /// The part of the predicate SQL cannot express.
    let residual: ObjectPredicate?
    /// ` ORDER BY …`, meaningful when `sortIsSQL`.
    let orderClause: SQL
    let sortIsSQL: Bool

    init(request: FetchRequest, context: ManagedObjectContext) throws {
        guard let entity = context.schema.entity(named: request.entityName) else {
            throw ContextError.refused(.noSuchEntity(request.entityName))
        }
        self.request = request
        self.context = context
        self.entity = entity
        let variables = request.substitutionVariables.mapValues { ExpressionValue($0) }
        self.evaluator = ExpressionEvaluator(variables: variables)
        let compiler = PredicateSQLCompiler(schema: context.schema, entity: entity, variables: variables, alias: "t0")
        let (sql, residual) = request.predicate.map(compiler.split) ?? (nil, nil)
        self.residual = residual
        var conditions: [SQL] = []
        let kinds = request.includesSubentities ? entity.kindNumbers : [entity.number]
        let tableEntities = context.schema.entities.filter { $0.tableName == entity.tableName }.count
        if kinds.count != tableEntities {
            // Entity numbers come from the model, not the user: in the text, the planner sees them.
            conditions.append("t0.Z_ENT IN (\(sql: kinds.map(String.init).joined(separator: ", ")))")
        }
        if let sql { conditions.append(sql) }
        let whereClause: SQL = conditions.isEmpty ? "" : " WHERE \(conditions.joined(separator: " AND "))"
        self.fromWhere = "\(identifier: entity.tableName) t0\(whereClause)"

        var orderTerms: [SQL] = []
        var allSQL = true
        for descriptor in request.sortDescriptors {
            let components = descriptor.keyPath.split(separator: ".").map(String.init)
            guard let column = compiler.sortColumn(components) else {
                allSQL = false
                break
            }
            orderTerms.append("\(column) \(sql: descriptor.ascending ? "ASC" : "DESC")")
        }
        // Ties go by primary key, in the direction of the last sort, so an index on the sort key
        // (whose entries end with the row's key) gives the order without sorting.
        let descending = request.sortDescriptors.last.map { !$0.ascending } ?? false
        orderTerms.append("t0.Z_PK \(sql: descending ? "DESC" : "ASC")")
        self.sortIsSQL = allSQL
        self.orderClause = " ORDER BY \(orderTerms.joined(separator: ", "))"
    }

    /// True when SQL alone cannot give the answer: a residual predicate, a sort SQL cannot do,
    /// or unsaved changes to objects of the fetched entity.
    var needsMemoryPass: Bool {
        residual != nil || !sortIsSQL || hasPendingChanges
    }

    private var hasPendingChanges: Bool {
        let kinds = Set(entity.kindNumbers)
        let changed = context.insertedObjectsList + context.updatedObjectsList + context.deletedObjectsList
        return changed.contains { kinds.contains(context.schema.storage(ofModelEntity: $0.entity.name).number) }
    }

    var limitClause: SQL {
        guard request.fetchLimit != nil || request.fetchOffset > 0 else { return "" }
        return " LIMIT \(sql: String(request.fetchLimit ?? -1)) OFFSET \(sql: String(request.fetchOffset))"
    }

    func fetchRows(windowed: Bool) throws -> [ManagedObject] {
        let sql: SQL = "SELECT t0.* FROM \(fromWhere)\(sortIsSQL ? orderClause : "")\(windowed ? limitClause : "")"
        let rows = try context.store.database.read { db in
            try Row.fetchAll(db, SQLRequest(literal: sql))
        }
        return try rows.map { row in
            let storage = try context.rowReader(row, table: entity.tableName).entity(in: context.schema)
            return try context.object(for: row, entity: storage)
        }
    }

    /// Store results, minus deleted objects, with changed and inserted objects re-checked in memory.
    func mergedWithPendingChanges(_ fetched: [ManagedObject]) throws -> [ManagedObject] {
        let kinds = Set(request.includesSubentities ? entity.kindNumbers : [entity.number])
        func isCandidate(_ object: ManagedObject) -> Bool {
            kinds.contains(context.schema.storage(ofModelEntity: object.entity.name).number)
        }
        let pending = (context.insertedObjectsList + context.updatedObjectsList).filter(isCandidate)
        let pendingIDs = Set(pending.map(\.objectID))
        var result = fetched.filter { !$0.isDeleted && !pendingIDs.contains($0.objectID) }
        if let residual {
            result = try result.filter { try evaluator.evaluate(residual, on: .object($0)) }
        }
        let predicate = request.predicate ?? .constant(true)
        result += try pending.filter { try evaluator.evaluate(predicate, on: .object($0)) }
        return result
    }

    func sortedInMemory(_ objects: [ManagedObject]) throws -> [ManagedObject] {
        let keys = try objects.map { object in
            try request.sortDescriptors.map { descriptor in
                let path = ValueExpression.keyPath(base: nil, components: descriptor.keyPath.split(separator: ".").map(String.init))
                return SQLiteScalar(try evaluator.evaluate(path, on: .object(object)).scalarValue)
            }
        }
        let order = objects.indices.sorted { a, b in
            for (index, descriptor) in request.sortDescriptors.enumerated() {
                let comparison = SQLiteScalar.order(keys[a][index], keys[b][index])
                if comparison != 0 { return descriptor.ascending ? comparison < 0 : comparison > 0 }
            }
            let ascending = request.sortDescriptors.last?.ascending ?? true
            return ascending ? Self.tiebreak(objects[a].objectID, objects[b].objectID)
                             : Self.tiebreak(objects[b].objectID, objects[a].objectID)
        }
        return order.map { objects[$0] }
    }

    /// Saved objects by primary key, then unsaved ones, as SQL's `ORDER BY Z_PK` would place them
    /// (reversed for a descending sort).
    private static func tiebreak(_ a: ObjectID, _ b: ObjectID) -> Bool {
        switch (a.primaryKey, b.primaryKey) {
        case let (x?, y?): return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.description < b.description
        }
    }

    func window(_ objects: [ManagedObject]) -> [ManagedObject] {
        let start = min(max(request.fetchOffset, 0), objects.count)
        // As in SQL, a negative limit means none; one near Int.max must not overflow.
        let limit = request.fetchLimit.flatMap { $0 >= 0 ? $0 : nil }
        let end = limit.map { start + min($0, objects.count - start) } ?? objects.count
        return Array(objects[start..<end])
    }
}
