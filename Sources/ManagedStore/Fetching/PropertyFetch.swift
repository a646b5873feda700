internal import GRDB

extension ManagedObjectContext {
    /// Calls `body` with each row of the request as the store reads it: one statement, streamed,
    /// to-many counts as correlated subqueries, so memory stays flat however many rows there are.
    /// Each row's bookkeeping (`Z_PK`, `Z_ENT`, `Z_OPT`) is checked as for fetched objects: a
    /// damaged row is an error, never skipped. `body`'s errors pass through as they are.
    public func forEachRow(of request: PropertyFetchRequest, _ body: (PropertyRow) throws -> Void) throws {
        let query = try PropertyFetchQuery(request: request, context: self)
        try store.database.read { db in
            let rows = try Row.fetchCursor(db, SQLRequest<Row>(literal: query.sql))
            while let row = try rows.next() {
                try body(try query.decode(row))
            }
        }
    }

    /// Calls `body` with the primary key of each object the request matches, in its order (Core
    /// Data's object ID result type); the request's properties are not read. Only the keys are
    /// selected, so an index on the sort key answers without reading the rows: the IDs of a
    /// whole list come in milliseconds. The rows' bookkeeping is checked when they are read.
    public func forEachPrimaryKey(of request: PropertyFetchRequest, _ body: (Int64) throws -> Void) throws {
        let query = try PropertyFetchQuery(request: request, context: self, keysOnly: true)
        try store.database.read { db in
            // `Z_PK` is the table's rowid, so SQLite keeps it an integer.
            let keys = try Int64.fetchCursor(db, SQLRequest<Int64>(literal: query.sql))
            while let key = try keys.next() {
                try body(key)
            }
        }
    }
}

/// The SQL of one property fetch, and how its rows become `PropertyRow`s.
struct PropertyFetchQuery {
    private let context: ManagedObjectContext
    private let entity: EntityStorage
    private let decoders: [ValueDecoder]
    let sql: SQL

    /// How the column of one requested property becomes a value.
    private enum ValueDecoder {
        case attribute(AttributeDescription, column: String)
        case count
        case flag
        case keys
    }

    /// The bookkeeping columns come first, then one column per requested property.
    private static let bookkeepingColumns = 3

    /// - Parameter keysOnly: select `Z_PK` alone (for `forEachPrimaryKey`), no property.
    init(request: PropertyFetchRequest, context: ManagedObjectContext, keysOnly: Bool = false) throws {
        guard let entity = context.schema.entity(named: request.entityName) else {
            throw ContextError.refused(.noSuchEntity(request.entityName))
        }
        self.context = context
        self.entity = entity
        let info = context.info(for: entity.name)
        var selected: [SQL] = keysOnly ? ["t0.Z_PK"] : ["t0.Z_PK", "t0.Z_ENT", "t0.Z_OPT"]
        var decoders: [ValueDecoder] = []
        for property in keysOnly ? [] : request.properties {
            let (column, decoder) = try Self.column(for: property, of: entity, attributes: info.attributes)
            selected.append(column)
            decoders.append(decoder)
        }
        self.decoders = decoders

        // Rows of other entities sharing the table are left out; any other Z_ENT (NULL, unknown)
        // is read, so that the row check reports it (keys only: when that row itself is read).
        let kinds = request.includesSubentities ? entity.kindNumbers : [entity.number]
        let others = context.schema.entities.filter { $0.tableName == entity.tableName && !kinds.contains($0.number) }
        var conditions: [SQL] = others.isEmpty ? [] : ["coalesce(t0.Z_ENT IN \(others.map(\.number)), 0) = 0"]
        let variables = request.substitutionVariables.mapValues { ExpressionValue($0) }
        let compiler = PredicateSQLCompiler(schema: context.schema, entity: entity, variables: variables, alias: "t0")
        if let predicate = request.predicate {
            guard let fragment = compiler.compile(predicate) else {
                throw ContextError.refused(.predicateNotInSQL(entity: entity.name, predicate: "\(predicate)"))
            }
            conditions.append(fragment)
        }
        if let keys = request.primaryKeys {
            conditions.append("t0.Z_PK IN \(keys)")
        }
        if let related = request.relatedTo {
            let (table, ownerColumn, memberColumn) = try Self.members(of: related.relationship, in: entity)
            conditions.append("""
                EXISTS (SELECT 1 FROM \(identifier: table) m WHERE m.\(identifier: ownerColumn) = t0.Z_PK \
                AND m.\(identifier: memberColumn) IN \(related.primaryKeys))
                """)
        }
        let whereClause: SQL = conditions.isEmpty ? "" : "WHERE \(literal: conditions.map { "(\(literal: $0))" }.joined(separator: " AND "))"
        var order: [SQL] = []
        for descriptor in request.sortDescriptors {
            let path = ValueExpression.keyPath(base: nil, components: descriptor.keyPath.split(separator: ".").map(String.init))
            guard let key = compiler.valueSQL(path)?.sql else {
                throw ContextError.refused(.sortNotInSQL(entity: entity.name, keyPath: descriptor.keyPath))
            }
            order.append("\(key) \(sql: descriptor.ascending ? "ASC" : "DESC")")
        }
        // Ties go by primary key, in the direction of the last sort, so an index on the sort key
        // (whose entries end with the row's key) gives the order without sorting.
        let descending = request.sortDescriptors.last.map { !$0.ascending } ?? false
        order.append(descending ? "t0.Z_PK DESC" : "t0.Z_PK ASC")
        let window: SQL = request.fetchLimit == nil && request.fetchOffset <= 0
            ? ""
            : "LIMIT \(request.fetchLimit ?? -1) OFFSET \(max(request.fetchOffset, 0))"
        sql = """
            SELECT \(literal: selected.joined(separator: ", ")) FROM \(identifier: entity.tableName) t0 \(literal: whereClause)
            ORDER BY \(literal: order.joined(separator: ", ")) \(literal: window)
            """
    }

    private static func column(for property: PropertyFetchRequest.Property, of entity: EntityStorage,
                               attributes: [String: AttributeDescription]) throws -> (SQL, ValueDecoder) {
        switch property {
        case .attribute(let name), .hasValue(let name):
            guard let column = entity.attributeColumns[name], let attribute = attributes[name] else {
                throw ContextError.refused(.noSuchAttribute(entity: entity.name, attribute: name))
            }
            if case .hasValue = property {
                return ("(t0.\(identifier: column.name) IS NOT NULL)", .flag)
            }
            return ("t0.\(identifier: column.name)", .attribute(attribute, column: column.name))
        case .count(let name):
            let (table, ownerColumn, _) = try members(of: name, in: entity)
            return ("(SELECT COUNT(*) FROM \(identifier: table) m WHERE m.\(identifier: ownerColumn) = t0.Z_PK)", .count)
        case .memberKeys(let name):
            let (table, ownerColumn, memberColumn) = try members(of: name, in: entity)
            return ("""
                (SELECT group_concat(k, ' ') FROM (SELECT m.\(identifier: memberColumn) AS k FROM \(identifier: table) m \
                WHERE m.\(identifier: ownerColumn) = t0.Z_PK ORDER BY k))
                """, .keys)
        }
    }

    /// Where a to-many relationship's members are listed: the table, the column holding the
    /// owner's key and the column holding the member's (`Z_PK` of the members' own table when
    /// the inverse is a to-one).
    private static func members(of relationship: String, in entity: EntityStorage) throws -> (table: String, owner: String, member: String) {
        switch entity.toManyStorage[relationship] {
        case .inverseForeignKey(let table, let column, _, _)?:
            return (table, column, "Z_PK")
        case .joinTable(let table, let ownerColumn, let memberColumn, _, _)?:
            return (table, ownerColumn, memberColumn)
        case nil:
            throw ContextError.refused(.noSuchToManyRelationship(entity: entity.name, relationship: relationship))
        }
    }

    /// One result row, its bookkeeping checked.
    func decode(_ row: Row) throws -> PropertyRow {
        let (storage, primaryKey) = try context.rowReader(row, table: entity.tableName).leadingBookkeeping(in: context.schema)
        var values: [AttributeValue?] = []
        var members: [Int: [Int64]] = [:]
        values.reserveCapacity(decoders.count)
        for (index, decoder) in decoders.enumerated() {
            let stored: DatabaseValue = row[Self.bookkeepingColumns + index]
            switch decoder {
            case .attribute(let attribute, let column):
                values.append(try context.attributeValue(stored, of: attribute, entity: storage, column: column, primaryKey: primaryKey))
            case .count:
                values.append(Int64.fromDatabaseValue(stored).map(AttributeValue.integer))
            case .flag:
                values.append(Int64.fromDatabaseValue(stored).map { .bool($0 != 0) })
            case .keys:
                values.append(nil)
                members[index] = (String.fromDatabaseValue(stored).map { $0.split(separator: " ").compactMap { Int64($0) } } ?? []).sorted()
            }
        }
        return PropertyRow(entityName: storage.name, primaryKey: primaryKey, values: values, members: members)
    }
}
