import Foundation
internal import GRDB

/// Reads history rows into typed transactions and changes: entity numbers to names, interned
/// strings to text, `ZCOLUMNS` to property names, tombstone columns to attribute values.
struct HistoryReader {
    let schema: StoreSchema
    let path: String

    func transactions(after token: Int64, author: String?, contextName: String?, in db: Database) throws -> [HistoryTransaction] {
        let strings = try Dictionary(Row.fetchAll(db, sql: "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING").map {
            (($0["Z_PK"] as Int64?) ?? 0, ($0["ZNAME"] as String?) ?? "")
        }, uniquingKeysWith: { first, _ in first })
        var transactions = try Row.fetchAll(db, sql: """
            SELECT Z_PK, ZTIMESTAMP, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID
            FROM ATRANSACTION WHERE Z_PK > ? ORDER BY Z_PK
            """, arguments: [token]).map { row in
            // The …TS columns name interned strings; the VARCHAR twins hold the text where a writer put it there.
            func text(_ interned: String, _ plain: String) -> String? {
                (row[interned] as Int64?).flatMap { strings[$0] } ?? row[plain]
            }
            return HistoryTransaction(token: row["Z_PK"], timestamp: Date(timeIntervalSinceReferenceDate: row["ZTIMESTAMP"] ?? 0),
                                      author: text("ZAUTHORTS", "ZAUTHOR"), contextName: text("ZCONTEXTNAMETS", "ZCONTEXTNAME"),
                                      bundleID: text("ZBUNDLEIDTS", "ZBUNDLEID"), processName: text("ZPROCESSIDTS", "ZPROCESSID"),
                                      changes: [])
        }
        transactions.removeAll { (author != nil && $0.author != author) || (contextName != nil && $0.contextName != contextName) }
        guard let first = transactions.first?.token else { return [] }
        let positions = Dictionary(uniqueKeysWithValues: transactions.enumerated().map { ($1.token, $0) })
        let tombstoneColumns = try Tombstones.existingColumns(in: db).filter { $0.hasPrefix("ZTOMBSTONE") }
        let tombstones = tombstoneColumns.map { column -> SQL in ", \(identifier: column)" }.joined()
        let rows = try Row.fetchCursor(db, SQLRequest(literal: """
            SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS\(tombstones)
            FROM ACHANGE WHERE ZTRANSACTIONID >= \(first) ORDER BY Z_PK
            """))
        while let row = try rows.next() {
            guard let transaction = row["ZTRANSACTIONID"] as Int64?, let position = positions[transaction] else { continue }
            transactions[position].changes.append(try change(row))
        }
        return transactions
    }

    private func change(_ row: Row) throws -> HistoryChange {
        let number: Int = row["ZENTITY"] ?? 0
        let entity = schema.entity(number: number)?.name
        guard let kind = HistoryChange.Kind(rawValue: row["ZCHANGETYPE"] ?? -1) else {
            throw StoreError(path: path, mismatch: .unreadableValue(table: "ACHANGE", column: "ZCHANGETYPE",
                                                                    primaryKey: row["Z_PK"], found: "\(row["ZCHANGETYPE"] as DatabaseValue)"))
        }
        var updated: [String] = []
        var tombstone: [String: AttributeValue] = [:]
        if let entity {
            if kind == .update, let columns = row["ZCOLUMNS"] as Data? {
                updated = ChangedProperties(entity: entity, model: schema.model).decode(columns)
            }
            if kind == .delete {
                for (index, attribute) in Tombstones(entity: entity, model: schema.model).attributes.enumerated() {
                    let value: DatabaseValue = row[Tombstones.column(index)] ?? .null
                    do {
                        tombstone[attribute.name] = try StoreValueCoding.attributeValue(value, type: attribute.type)
                    } catch let error as ValueDecodingError {
                        throw StoreError(path: path, .unreadableAttribute(entity: entity, attribute: attribute.name, primaryKey: row["Z_PK"],
                                                                          found: error.found, type: error.type.rawValue))
                    }
                }
            }
        }
        return HistoryChange(token: row["Z_PK"], kind: kind, entityName: entity ?? "entity \(number)",
                             primaryKey: row["ZENTITYPK"] ?? 0, updatedProperties: updated, tombstone: tombstone)
    }
}
