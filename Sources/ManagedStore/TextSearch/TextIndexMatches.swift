import Foundation
internal import GRDB

/// Finds the entries whose folded text holds a pattern. Each indexed attribute has a text table
/// of its own (so a save that changes a title folds the title again, not a 10 MB body beside
/// it), every one with its rows at the entries' places in the objects' order; the matches of
/// each come out newest first and are merged, an object matched in several attributes once.
struct TextIndexMatches {
    let configuration: TextIndexConfiguration

    /// The keys of the matching objects, newest first, `limit` of them (all when nil) from `offset`.
    func primaryKeys(of folded: String, lookingUpTrigrams: Bool, limit: Int?, offset: Int, in db: Database) throws -> [Int64] {
        // The trigrams find the objects that hold every trigram of the pattern anywhere (the index
        // keeps no positions); the folded text then says which hold the pattern itself.
        let cursors = try configuration.foldedTables.map { table -> DatabaseValueCursor<Int64> in
            let condition: SQL = lookingUpTrigrams
                ? "\(table) MATCH \(TextIndexQuery.trigrams(of: folded)) AND instr(text, \(folded)) > 0"
                : "instr(text, \(folded)) > 0"
            return try Int64.fetchCursor(db, SQLRequest(literal: "SELECT rowid FROM \(table) WHERE \(condition) ORDER BY rowid DESC"))
        }
        let positions = try Self.merged(cursors, limit: limit, offset: max(offset, 0))
        let keyAtPosition = try db.makeStatement(sql: "SELECT pk FROM entry WHERE position = ?")
        return try positions.compactMap { try Int64.fetchOne(keyAtPosition, arguments: [$0]) }
    }

    /// The distinct values of cursors that each give theirs largest first, largest first:
    /// `limit` of them (all when nil) after skipping `offset`. Reads no further than it returns.
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
