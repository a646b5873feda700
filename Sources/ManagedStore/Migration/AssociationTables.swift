import Foundation
internal import GRDB

/// The temporary tables associating each entity mapping's source objects with the destination
/// objects made from them (`spk, sent, dpk, dent`: keys and entity numbers), on the destination's
/// connection, where the source is attached as `src`. The SQL path numbers rows into them and
/// joins them; the policy API records and looks up pairs in them: the same tables either way, so
/// memory stays flat however many objects there are. A mapping whose objects keep their source
/// keys (`CopyPlan.keepsSourceKeys`) has a view over its source rows instead.
struct AssociationTables {
    let plan: CopyPlan
    /// The destination's connection, the one the temporary tables belong to.
    let database: DatabaseQueue

    /// One pair made by the per-object path.
    struct Pair {
        let mapping: Int
        let sourceKey: Int64
        let sourceEntity: Int
        let destinationKey: Int64
        let destinationEntity: Int
    }

    /// The association of entity mapping `index`, as SQL names it.
    static func table(_ index: Int) -> SQL { "temp.\(name(index))" }

    /// Its name, without the schema: this program's own, so written as it is.
    private static func name(_ index: Int) -> SQL { "\(sql: "MS_ASSOCIATION_\(index)")" }

    /// Creates every mapping's table (indexed both ways) or view.
    func create(in db: Database) throws {
        for index in plan.instances.indices {
            if plan.keepsSourceKeys.contains(index), case .setBased(let selection, let statement) = plan.instances[index] {
                try db.execute(literal: """
                    CREATE TEMP VIEW \(Self.name(index)) (spk, sent, dpk, dent) AS
                    SELECT s.Z_PK, s.Z_ENT, s.Z_PK, \(sql: String(statement.destination.number)) FROM \(selection.from)
                    """)
                continue
            }
            let name = Self.name(index)
            try db.execute(literal: "CREATE TEMP TABLE \(name) (spk INTEGER NOT NULL, sent INTEGER NOT NULL, dpk INTEGER NOT NULL, dent INTEGER NOT NULL)")
            try db.execute(literal: "CREATE INDEX temp.\(name)_S ON \(name) (spk, sent)")
            try db.execute(literal: "CREATE INDEX temp.\(name)_D ON \(name) (dpk)")
        }
    }

    /// Drops every table and view.
    func drop(in db: Database) throws {
        for index in plan.instances.indices {
            let kind: SQL = plan.keepsSourceKeys.contains(index) ? "VIEW" : "TABLE"
            try db.execute(literal: "DROP \(kind) IF EXISTS \(Self.table(index))")
        }
    }

    /// Records pairs the per-object path made.
    func record(_ pairs: [Pair]) throws {
        try database.write { db in
            for pair in pairs {
                try db.execute(literal: """
                    INSERT INTO \(Self.table(pair.mapping)) (spk, sent, dpk, dent) \
                    VALUES (\(pair.sourceKey), \(pair.sourceEntity), \(pair.destinationKey), \(pair.destinationEntity))
                    """)
            }
        }
    }

    /// The destination objects mapping `index` made from a source object.
    func destinations(of index: Int, sourceKey: Int64, sourceEntity: Int, in store: PersistentStore) throws -> [ObjectID] {
        let rows = try database.read { db in
            try Row.fetchAll(db, SQLRequest(literal: "SELECT dpk, dent FROM \(Self.table(index)) WHERE spk = \(sourceKey) AND sent = \(sourceEntity)"))
        }
        return try rows.map { try objectID($0, key: "dpk", entity: "dent", of: index, in: store) }
    }

    /// The source objects mapping `index` made a destination object from.
    func sources(of index: Int, destinationKey: Int64, in store: PersistentStore) throws -> [ObjectID] {
        let rows = try database.read { db in
            try Row.fetchAll(db, SQLRequest(literal: "SELECT spk, sent FROM \(Self.table(index)) WHERE dpk = \(destinationKey)"))
        }
        return try rows.map { try objectID($0, key: "spk", entity: "sent", of: index, in: store) }
    }

    /// Up to `limit` destination objects of mapping `index` with keys above `key`, in key order.
    func destinations(of index: Int, after key: Int64, limit: Int, in store: PersistentStore) throws -> [ObjectID] {
        let rows = try database.read { db in
            try Row.fetchAll(db, SQLRequest(literal: "SELECT dpk, dent FROM \(Self.table(index)) WHERE dpk > \(key) ORDER BY dpk LIMIT \(limit)"))
        }
        return try rows.map { try objectID($0, key: "dpk", entity: "dent", of: index, in: store) }
    }

    /// The object one side of an association row names, read with errors (the row is this
    /// program's, but its numbers came from the store).
    private func objectID(_ row: Row, key: String, entity: String, of index: Int, in store: PersistentStore) throws -> ObjectID {
        let reader = RowReader(row: row, table: "MS_ASSOCIATION_\(index)", path: store.url.path)
        let number = try reader.integer(entity)
        guard let primaryKey = try reader.integer(key),
              let storage = number.flatMap({ Int(exactly: $0) }).flatMap(store.schema.entity(number:)) else {
            throw MigrationError.mapping(.associationNamesNoObject(store: store.url.path, entityMapping: index, entityNumber: number))
        }
        return ObjectID(entityName: storage.name, primaryKey: primaryKey)
    }

    // MARK: Destination keys

    /// Calls `body` with ranges of mapping `index`'s destination keys, at most `size` keys wide,
    /// in order. Each range starts at a key that exists, so sparse keys (kept from the source)
    /// cost no empty transactions, and no arithmetic passes the ends of Int64.
    func forEachKeyRange(of index: Int, size: Int, _ body: (_ from: Int64, _ to: Int64) throws -> Void) throws {
        var next = try firstKey(of: index, after: nil)
        while let from = next {
            let (sum, overflow) = from.addingReportingOverflow(Int64(size - 1))
            let to = overflow ? Int64.max : sum
            try body(from, to)
            next = to == .max ? nil : try firstKey(of: index, after: to)
        }
    }

    /// The smallest destination key of mapping `index` (after `key`): one step down an index, or
    /// down the source's keys for a view.
    private func firstKey(of index: Int, after key: Int64?) throws -> Int64? {
        try database.read { db in
            let after: SQL = key.map { "WHERE dpk > \($0)" } ?? ""
            return try Int64.fetchOne(db, SQLRequest(literal: "SELECT MIN(dpk) FROM \(Self.table(index)) \(after)"))
        }
    }

    /// The smallest and largest destination key of mapping `index`; nil when it has none. Two
    /// subqueries, so each is one step down an index (or the source's keys, for a view).
    func keyBounds(of index: Int) throws -> (low: Int64, high: Int64)? {
        let table = Self.table(index)
        let bounds = try database.read { db in
            try Row.fetchOne(db, SQLRequest(literal: "SELECT (SELECT MIN(dpk) FROM \(table)) AS low, (SELECT MAX(dpk) FROM \(table)) AS high"))
        }
        guard let low: Int64 = bounds?["low"], let high: Int64 = bounds?["high"] else { return nil }
        return (low, high)
    }
}
