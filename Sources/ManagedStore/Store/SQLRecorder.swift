import Foundation
internal import GRDB

/// Keeps every SQL statement the engine runs on the connections of stores opened with it
/// (`StoreOptions.sqlRecorder`), in order, with its parameters written into it (not `?`), the
/// connection it ran on and that connection's file: what `store migrate --dry-run --explain`
/// shows, and what can be run again by hand to make the same store.
///
/// Unchecked: `recorded` and `connections` are read and written only with `lock` held (GRDB
/// traces from each connection's own queue).
public final class SQLRecorder: @unchecked Sendable {
    /// One statement as it ran.
    public struct Statement: Sendable, Equatable, Codable {
        /// Which connection ran it, numbered from 1 in the order they were opened: temporary
        /// tables and attachments belong to one connection.
        public var connection: Int
        /// The connection's main file.
        public var file: String
        /// The statement, parameters expanded as SQLite quotes them.
        public var sql: String
    }

    private let lock = NSLock()
    private var recorded: [Statement] = []
    private var connections = 0

    public init() {}

    /// The statements so far, in the order they ran.
    public var statements: [Statement] {
        lock.withLock { recorded }
    }

    /// Starts recording a new connection's statements; called as the connection is prepared.
    func attach(to db: Database) {
        // Asked before tracing starts, so the question is not recorded.
        let file = (try? String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'")) ?? nil
        let connection = lock.withLock {
            connections += 1
            return connections
        }
        db.trace(options: .statement) { event in
            guard case .statement(let statement) = event else { return }
            let sql = statement.expandedSQL
            // Statements of triggers are reported as comments; the statement that fired them is recorded.
            guard !sql.hasPrefix("--") else { return }
            self.lock.withLock { self.recorded.append(Statement(connection: connection, file: file ?? "", sql: sql)) }
        }
    }
}
