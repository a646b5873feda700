import Foundation
internal import GRDB

/// Copies objects' text from the store into the text index, folded, and compares the two.
struct TextIndexWriter {
    /// (count, largest key, sum of save counts): differs when objects were added, deleted or saved.
    struct Fingerprint: Equatable {
        var count: Int64
        var largestKey: Int64?
        /// `TOTAL`, a float: a sum of integers read from a file must not overflow.
        var saveCountSum: Double
    }

    let side: DatabaseQueue
    let table: IndexedTable
    let configuration: TextIndexConfiguration
    /// Rows read from the store per query.
    let chunkSize = 500

    func fingerprintOfStore(_ store: Database) throws -> Fingerprint {
        try fingerprint(store, "SELECT COUNT(*), MAX(Z_PK), TOTAL(Z_OPT) FROM \(table.name)\(table.whereClause())")
    }

    func fingerprintOfIndex() throws -> Fingerprint {
        try side.read { db in try fingerprint(db, "SELECT COUNT(*), MAX(pk), TOTAL(opt) FROM entry") }
    }

    private func fingerprint(_ db: Database, _ sql: SQL) throws -> Fingerprint {
        let row = try Row.fetchOne(db, SQLRequest(literal: sql))
        return Fingerprint(count: row.flatMap { Int64.fromDatabaseValue($0[0]) } ?? 0,
                           largestKey: row.flatMap { Int64.fromDatabaseValue($0[1]) },
                           saveCountSum: row.flatMap { Double.fromDatabaseValue($0[2]) } ?? 0)
    }

    /// Makes the index match the store: entries of deleted objects go, objects saved since their
    /// entry was made (another `Z_OPT`) are folded again. An empty index is filled in one pass
    /// (`fill`), `progress` told the fraction done as it goes.
    /// - Returns: how many entries were folded again or removed.
    func synchronize(from store: Database, progress: (Double) -> Void = { _ in }) throws -> Int {
        let inIndex = try side.read { db in try saveCounts(db, "SELECT pk, opt FROM entry") }
        if inIndex.isEmpty { return try fill(from: store, progress: progress) }
        let inStore = try saveCounts(store, "SELECT Z_PK, Z_OPT FROM \(table.name)\(table.whereClause())")
        let changed = inStore.filter { inIndex[$0.key] != $0.value }.map(\.key)
        let gone = inIndex.keys.filter { inStore[$0] == nil }
        try copy(changed + gone, from: store)
        return changed.count + gone.count
    }

    /// Fills an empty index with every object, read in the index's order (the order attribute,
    /// then key) and placed `spacing` apart as they come, in one transaction: no staging and no
    /// placing among others, where a first build of 100,000 objects spent most of its time.
    /// - Returns: how many entries were made.
    private func fill(from store: Database, progress: (Double) -> Void) throws -> Int {
        let total = Int(try fingerprintOfStore(store).count)
        guard total > 0 else { return 0 }
        let storeColumns = table.columns.joined(separator: ", ")
        return try side.write { db in
            let entry = try db.makeStatement(sql: "INSERT INTO entry (pk, opt, date, position) VALUES (?, ?, ?, ?)")
            let texts = try configuration.foldedTables.map { table in
                try db.makeStatement(literal: "INSERT INTO \(table) (rowid, text) VALUES (?, ?)")
            }
            let rows = try Row.fetchCursor(store, SQLRequest(literal: """
                SELECT Z_PK, Z_OPT, \(table.orderColumn), \(storeColumns) FROM \(table.name)\(table.whereClause())
                ORDER BY \(table.orderColumn), Z_PK
                """))
            var made = 0
            var position: Int64 = 0
            while let row = try rows.next() {
                position += TextIndexPositions.spacing
                let key: Int64 = row[0]
                let orderValue: DatabaseValue = row[2]
                try entry.execute(arguments: [key, Self.saveCount(row[1]), orderValue, position])
                for (attribute, text) in texts.enumerated() { try text.execute(arguments: [position, folded(row[3 + attribute])]) }
                made += 1
                if made.isMultiple(of: chunkSize) { progress(Double(made) / Double(max(total, made))) }
            }
            progress(1)
            return made
        }
    }

    /// Replaces the entries of these objects with their current rows, in one transaction of the
    /// index; objects not in the store lose their entry.
    func copy(_ primaryKeys: [Int64], from store: Database) throws {
        // An empty index (a new store's, at its first save or an import into it) is filled whole
        // in one pass: the same entries for these objects, and those of any other object, which
        // the index lacks anyway. Staging and placing each object costs several times as much.
        if try side.read({ db in try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM entry)") ?? false }) {
            _ = try fill(from: store, progress: { _ in })
            return
        }
        let sideColumns = configuration.sideColumns.joined(separator: ", ")
        let storeColumns = table.columns.joined(separator: ", ")
        try side.write { db in
            var start = 0
            while start < primaryKeys.count {
                let chunk = Array(primaryKeys[start..<min(start + chunkSize, primaryKeys.count)])
                start += chunk.count
                let rows = try Row.fetchAll(store, SQLRequest(literal: """
                    SELECT Z_PK, Z_OPT, \(table.orderColumn), \(storeColumns) FROM \(table.name)\(table.whereClause("Z_PK IN \(chunk)"))
                    """))
                let previous = try Row.fetchAll(db, SQLRequest(literal: "SELECT pk, date, position FROM entry WHERE pk IN \(chunk)"))
                    .reduce(into: [Int64: Row]()) { $0[$1[0]] = $1 }
                for table in configuration.foldedTables {
                    try db.execute(literal: "DELETE FROM \(table) WHERE rowid IN (SELECT position FROM entry WHERE pk IN \(chunk))")
                }
                try db.execute(literal: "DELETE FROM entry WHERE pk IN \(chunk)")
                for row in rows { try stage(row, previously: previous[row[0]], into: db, columns: sideColumns) }
            }
            try TextIndexPositions(db: db, configuration: configuration).placeStaged()
        }
    }

    /// Adds the object's entry. An object whose order value did not change keeps its place in the
    /// order; any other waits in `staged` for one.
    private func stage(_ row: Row, previously previous: Row?, into db: Database, columns: SQL) throws {
        let key: Int64 = row[0]
        let orderValue: DatabaseValue = row[2]
        let keptPosition = previous.flatMap { ($0[1] as DatabaseValue) == orderValue ? Int64.fromDatabaseValue($0[2]) : nil }
        try db.execute(sql: "INSERT INTO entry (pk, opt, date, position) VALUES (?, ?, ?, ?)",
                       arguments: [key, Self.saveCount(row[1]), orderValue, keptPosition])
        let texts = (0..<configuration.attributes.count).map { folded(row[3 + $0]) }
        if let keptPosition {
            for (table, text) in zip(configuration.foldedTables, texts) {
                try db.execute(literal: "INSERT INTO \(table) (rowid, text) VALUES (\(keptPosition), \(text))")
            }
        } else {
            try db.execute(literal: "INSERT INTO staged (pk, \(columns)) VALUES \([key.databaseValue] + texts.map(\.databaseValue))")
        }
    }

    /// Text folded as the configuration folds it; a missing value matches nothing, like "".
    func folded(_ value: DatabaseValue) -> String {
        String.fromDatabaseValue(value).map(configuration.fold) ?? ""
    }

    /// `Z_OPT` as stored; anything but an integer (a hand-edited store) counts as 0.
    static func saveCount(_ value: DatabaseValue) -> Int64 {
        Int64.fromDatabaseValue(value) ?? 0
    }

    func saveCounts(_ db: Database, _ sql: SQL) throws -> [Int64: Int64] {
        var counts: [Int64: Int64] = [:]
        let rows = try Row.fetchCursor(db, SQLRequest(literal: sql))
        while let row = try rows.next() {
            counts[row[0]] = Self.saveCount(row[1])
        }
        return counts
    }
}
