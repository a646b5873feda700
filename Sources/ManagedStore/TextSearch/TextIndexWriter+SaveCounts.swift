import Foundation
internal import GRDB

/// The cheap way a save brings an entry up to date, when the caller knows what the save changed:
/// only the attributes it changed are folded again (a title beside a 10 MB body), none for a
/// flag or a link, and the entry takes the new save count.
extension TextIndexWriter {
    /// Folds again only the given attributes of objects whose save changed those alone (not the
    /// order attribute; an empty set for a save that changed no indexed text), in their entries'
    /// places, and records the new save counts. Only an entry that was current just before that
    /// save (its count one less: each save adds one) is brought up to date so; one that another
    /// program's save left behind must be folded whole, else its old text would pass for current.
    /// - Returns: the keys whose entries were not brought up to date.
    func refold(_ partly: [Int64: Set<String>], from store: Database) throws -> [Int64] {
        var behind: [Int64] = []
        // Grouped by the attributes changed (one group, for a title's edit): one query per chunk of a group.
        let groups = Dictionary(grouping: partly.keys) { key in
            configuration.attributes.indices.filter { partly[key]?.contains(configuration.attributes[$0]) ?? false }
        }
        for (attributes, keys) in groups {
            var start = 0
            while start < keys.count {
                let chunk = Array(keys[start..<min(start + chunkSize, keys.count)])
                start += chunk.count
                let columns = attributes.map { table.columns[$0] }
                let rows = try Row.fetchAll(store, SQLRequest(literal: """
                    SELECT \((["Z_PK", "Z_OPT"] + columns).joined(separator: ", ")) FROM \(table.name)\(table.whereClause("Z_PK IN \(chunk)"))
                    """))
                behind += Set(chunk).subtracting(rows.map { $0[0] as Int64 })
                behind += try side.write { db in try refold(rows, attributes: attributes, in: db) }
            }
        }
        return behind
    }

    /// `refold` of rows read from the store (key, save count, then the attributes' values) into
    /// the side file. - Returns: the keys whose entries were not current just before the save.
    private func refold(_ rows: [Row], attributes: [Int], in db: Database) throws -> [Int64] {
        let advance = try db.makeStatement(sql: "UPDATE entry SET opt = ? WHERE pk = ? AND opt = ? AND position IS NOT NULL RETURNING position")
        let texts = try attributes.map { attribute in
            let textTable = configuration.foldedTables[attribute]
            return (remove: try db.makeStatement(literal: "DELETE FROM \(textTable) WHERE rowid = ?"),
                    insert: try db.makeStatement(literal: "INSERT INTO \(textTable) (rowid, text) VALUES (?, ?)"))
        }
        var behind: [Int64] = []
        for row in rows {
            let key: Int64 = row[0], count = Self.saveCount(row[1])
            guard let position = try Int64.fetchOne(advance, arguments: [count, key, count - 1]) else {
                behind.append(key)
                continue
            }
            for (column, text) in texts.enumerated() {
                try text.remove.execute(arguments: [position])
                try text.insert.execute(arguments: [position, folded(row[2 + column])])
            }
        }
        return behind
    }
}
