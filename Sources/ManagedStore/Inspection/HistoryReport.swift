import Foundation

/// A store's persistent history as `store history` shows it: per transaction its time, author,
/// context, bundle and process, and counts of inserts, updates and deletes per entity; with
/// `changes`, every change (entity, object, updated properties, tombstone).
public struct HistoryReport: Encodable {
    /// One transaction: who saved, when, and what it changed.
    public struct Transaction: Encodable {
        var token: Int64
        var timestamp: String
        var author: String?
        var contextName: String?
        var bundleID: String?
        var processName: String?
        /// Entity -> counts of inserts, updates, deletes.
        var counts: [String: Counts]
        var changes: [Change]?
    }

    /// How many objects of one entity a transaction inserted, updated and deleted.
    public struct Counts: Encodable, Equatable {
        var inserts = 0
        var updates = 0
        var deletes = 0
    }

    /// One change in full, for `store history --changes`.
    public struct Change: Encodable {
        var token: Int64
        var kind: String
        var entity: String
        var primaryKey: Int64
        var updatedProperties: [String]?
        var tombstone: [String: String]?
    }

    /// The transactions, oldest first.
    public let transactions: [Transaction]

    /// Summarises `history` for `store history`.
    /// - Parameter date: how times read (the caller's zone and format).
    /// - Parameter history: the transactions to show, oldest first.
    /// - Parameter changes: whether to list every change, not only counts per entity.
    public init(_ history: [HistoryTransaction], changes: Bool, date: (Date) -> String) {
        transactions = history.map { transaction in
            var counts: [String: Counts] = [:]
            for change in transaction.changes {
                switch change.kind {
                case .insert: counts[change.entityName, default: Counts()].inserts += 1
                case .update: counts[change.entityName, default: Counts()].updates += 1
                case .delete: counts[change.entityName, default: Counts()].deletes += 1
                }
            }
            return Transaction(token: transaction.token, timestamp: date(transaction.timestamp), author: transaction.author,
                               contextName: transaction.contextName, bundleID: transaction.bundleID,
                               processName: transaction.processName, counts: counts,
                               changes: changes ? transaction.changes.map(Self.change) : nil)
        }
    }

    private static func change(_ change: HistoryChange) -> Change {
        Change(token: change.token, kind: "\(change.kind)", entity: change.entityName, primaryKey: change.primaryKey,
               updatedProperties: change.kind == .update ? change.updatedProperties : nil,
               tombstone: change.kind == .delete ? change.tombstone.mapValues(\.displayText) : nil)
    }

    /// The report as lines of text; `escape` makes names from the store safe to print.
    public func lines(escape: (String) -> String) -> [String] {
        guard !transactions.isEmpty else { return ["no history"] }
        return transactions.flatMap { transaction -> [String] in
            let who = [("author", transaction.author), ("context", transaction.contextName),
                       ("bundle", transaction.bundleID), ("process", transaction.processName)]
                .compactMap { label, value in value.map { "\(label) \(escape($0))" } }
            let counts = transaction.counts.sorted { $0.key < $1.key }.map { entity, count in
                let parts = [(count.inserts, "insert"), (count.updates, "update"), (count.deletes, "delete")]
                    .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
                return "\(escape(entity)) \(parts.joined(separator: ", "))"
            }
            var lines = ["transaction \(transaction.token)  \(transaction.timestamp)  " + who.joined(separator: ", "),
                         "  " + counts.joined(separator: "; ")]
            for change in transaction.changes ?? [] {
                var line = "  \(change.kind) \(escape(change.entity)) \(change.primaryKey)"
                if let properties = change.updatedProperties { line += ": " + properties.map(escape).joined(separator: ", ") }
                if let tombstone = change.tombstone, !tombstone.isEmpty {
                    line += " (tombstone " + tombstone.sorted { $0.key < $1.key }.map { "\(escape($0.key))=\(escape($0.value))" }
                        .joined(separator: ", ") + ")"
                }
                lines.append(line)
            }
            return lines
        }
    }
}
