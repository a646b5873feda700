import Foundation
internal import GRDB

/// Gives staged entries their place in the text index, whose row ids follow the objects' order
/// (the order attribute, then key, as SQLite orders them), so the newest matches are read first
/// without sorting. Places are spaced apart so an object ordered among older ones fits between its
/// neighbours; when no room is left, every entry is numbered again.
struct TextIndexPositions {
    let db: Database
    /// The side file's tables, from the configuration.
    let configuration: TextIndexConfiguration
    static let spacing: Int64 = 64

    /// Places the entries of `staged`, moves their folded text into the text index and empties
    /// `staged`.
    func placeStaged() throws {
        let stagedCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM staged") ?? 0
        guard stagedCount > 0 else { return }
        if try !placeAtTheEnd(stagedCount) { try placeAmongOthers() }
        for (table, column) in zip(configuration.foldedTables, configuration.sideColumns) {
            try db.execute(literal: """
                INSERT INTO \(table) (rowid, text) SELECT entry.position, staged.\(column) FROM staged JOIN entry USING (pk)
                """)
        }
        try db.execute(sql: "DELETE FROM staged")
    }

    /// The common case, objects newer than all others (an object just written): each after the last.
    private func placeAtTheEnd(_ count: Int) throws -> Bool {
        let newest = try Row.fetchAll(db, sql: "SELECT pk, position FROM entry ORDER BY date DESC, pk DESC LIMIT ?",
                                      arguments: [count + 1])
        let placed = newest.prefix(count).map { Int64.fromDatabaseValue($0[1]) }
        guard placed.allSatisfy({ $0 == nil }) else { return false }
        let last = newest.count > count ? Int64.fromDatabaseValue(newest[count][1]) : nil
        guard let places = Self.places(count, after: last, before: nil) else { return false }
        for (row, position) in zip(newest.prefix(count).reversed(), places) {
            try setPosition(position, of: row[0])
        }
        return true
    }

    /// Each run of new entries goes evenly into the gap between its placed neighbours.
    private func placeAmongOthers() throws {
        let order = try Row.fetchAll(db, sql: "SELECT pk, position FROM entry ORDER BY date, pk")
            .map { (key: $0[0] as Int64, position: Int64.fromDatabaseValue($0[1])) }
        var assignments: [(key: Int64, position: Int64)] = []
        var previous: Int64?
        var index = 0
        while index < order.count {
            if let position = order[index].position {
                previous = position
                index += 1
                continue
            }
            var end = index
            while end < order.count, order[end].position == nil { end += 1 }
            guard let places = Self.places(end - index, after: previous, before: end < order.count ? order[end].position : nil) else {
                return try renumber(order.map(\.key))
            }
            assignments += zip(order[index..<end].map(\.key), places).map { (key: $0, position: $1) }
            previous = places.last
            index = end
        }
        for assignment in assignments { try setPosition(assignment.position, of: assignment.key) }
    }

    /// Every entry placed again, `spacing` apart, in `order`: their folded text is staged again.
    private func renumber(_ order: [Int64]) throws {
        let tables = configuration.foldedTables
        // Every entry has a row in each table; a side file that lost one stages empty text for it.
        let texts = tables.map { table -> SQL in "COALESCE((SELECT text FROM \(table) WHERE rowid = entry.position), '')" }.joined(separator: ", ")
        try db.execute(literal: """
            INSERT INTO staged (pk, \(configuration.sideColumns.joined(separator: ", "))) SELECT entry.pk, \(texts) FROM entry
            WHERE entry.position IS NOT NULL
            """)
        for table in tables { try db.execute(literal: "DELETE FROM \(table)") }
        try db.execute(sql: "UPDATE entry SET position = NULL")
        guard let places = Self.places(order.count, after: nil, before: nil) else { return }
        for (key, position) in zip(order, places) { try setPosition(position, of: key) }
    }

    private func setPosition(_ position: Int64, of key: Int64) throws {
        try db.execute(sql: "UPDATE entry SET position = ? WHERE pk = ?", arguments: [position, key])
    }

    /// `count` places strictly between `lower` and `upper` (open ends: `spacing` apart), nil when
    /// they do not fit. The bounds come from a file, so the arithmetic is checked.
    static func places(_ count: Int, after lower: Int64?, before upper: Int64?) -> [Int64]? {
        let count = Int64(count)
        let step: Int64
        let first: Int64
        switch (lower, upper) {
        case let (lower?, upper?):
            let (gap, overflow) = upper.subtractingReportingOverflow(lower)
            guard !overflow, gap > count else { return nil }
            step = gap / (count + 1)
            first = lower
        case let (lower?, nil):
            (step, first) = (spacing, lower)
        case let (nil, upper?):
            let (span, overflow) = spacing.multipliedReportingOverflow(by: count + 1)
            let (start, underflow) = upper.subtractingReportingOverflow(span)
            guard !overflow, !underflow else { return nil }
            (step, first) = (spacing, start)
        case (nil, nil):
            (step, first) = (spacing, 0)
        }
        var places: [Int64] = []
        var position = first
        for _ in 0..<count {
            let (next, overflow) = position.addingReportingOverflow(step)
            guard !overflow else { return nil }
            position = next
            places.append(position)
        }
        return places
    }
}
