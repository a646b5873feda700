import Foundation
internal import GRDB

/// Finds the entries whose folded text holds a pattern. Each indexed attribute has a text table
/// of its own (so a save that changes a title folds the title again, not a 10 MB body beside
/// it), every one with its rows at the entries' places in the objects' order.
struct TextIndexMatches {
    let configuration: TextIndexConfiguration

    /// The keys of the matching objects, newest first, `limit` of them (all when nil or
    /// negative) from `offset`.
    func primaryKeys(of folded: String, lookingUpTrigrams: Bool, limit: Int?, offset: Int, in db: Database) throws -> [Int64] {
        let limit = limit.flatMap { $0 < 0 ? nil : $0 }
        let offset = max(offset, 0)
        let positions = lookingUpTrigrams
            ? try byTrigrams(folded, limit: limit, offset: offset, in: db)
            : try byScan(folded, limit: limit, offset: offset, in: db)
        let keyAtPosition = try db.makeStatement(sql: "SELECT pk FROM entry WHERE position = ?")
        return try positions.compactMap { try Int64.fetchOne(keyAtPosition, arguments: [$0]) }
    }

    /// Each table's candidates (every trigram of the pattern somewhere in the row: the index
    /// keeps no positions), checked in its folded text, come out newest first and are merged,
    /// an object matched in several attributes once.
    private func byTrigrams(_ folded: String, limit: Int?, offset: Int, in db: Database) throws -> [Int64] {
        let cursors = try configuration.foldedTables.map { table -> DatabaseValueCursor<Int64> in
            try Int64.fetchCursor(db, SQLRequest(literal: """
                SELECT rowid FROM \(table) WHERE \(table) MATCH \(TextIndexQuery.trigrams(of: folded)) AND instr(text, \(folded)) > 0
                ORDER BY rowid DESC
                """))
        }
        return try Self.merged(cursors, limit: limit, offset: offset)
    }

    /// A pattern too short for trigrams is looked for in every attribute's text of each entry
    /// in turn, newest first (the entries' places are indexed), so a page stops at its last
    /// match (merged cursors would each scan to their first match, every body for a pattern only
    /// titles hold).
    private func byScan(_ folded: String, limit: Int?, offset: Int, in db: Database) throws -> [Int64] {
        guard !configuration.foldedTables.isEmpty else { return [] }
        let holds = configuration.foldedTables.map { table -> SQL in
            "instr((SELECT text FROM \(table) WHERE rowid = entry.position), \(folded)) > 0"
        }.joined(separator: " OR ")
        return try Int64.fetchAll(db, SQLRequest(literal: """
            SELECT position FROM entry WHERE position IS NOT NULL AND (\(holds))
            ORDER BY position DESC LIMIT \(limit ?? -1) OFFSET \(offset)
            """))
    }

    /// The distinct values of cursors that each give theirs largest first, largest first:
    /// `limit` of them (all when nil) after skipping `offset`. Each cursor is read as far as
    /// the values returned, and to its first value past them.
    static func merged<C: Cursor>(_ cursors: [C], limit: Int?, offset: Int) throws -> [Int64] where C.Element == Int64 {
        var cursors = cursors
        var heads = try cursors.indices.map { try cursors[$0].next() }
        var found: [Int64] = []
        var skipped = 0
        while limit.map({ found.count < $0 }) ?? true, let newest = heads.compactMap({ $0 }).max() {
            for index in heads.indices where heads[index] == newest { heads[index] = try cursors[index].next() }
            if skipped < offset { skipped += 1 } else { found.append(newest) }
        }
        return found
    }
}
