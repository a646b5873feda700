import Foundation
import GRDB
import Testing
import TestSupport

/// A save and its history are one SQLite transaction: `notes add` killed (SIGKILL, by strace's
/// fault injection) before each of its writes and syncs in turn leaves the store with the note and
/// its transaction, or with neither; never a change without its transaction or the reverse.
@Suite("A kill during a save never splits it from its history",
       .enabled(if: SyscallTrace.straceWorks, "skipped: strace cannot trace here (strace -f true failed): install strace and allow ptrace"))
struct HistoryKillTests {
    /// Notes, transactions and whether every change belongs to a transaction with changes, every
    /// note has its insert and every insert its note.
    private struct Shape: Equatable {
        var notes: Int
        var transactions: Int
        var consistent: Bool
    }

    private func shape(of url: URL) throws -> Shape {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let notes = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE") ?? -1
            let transactions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION") ?? -1
            let orphanChanges = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE WHERE ZTRANSACTIONID NOT IN (SELECT Z_PK FROM ATRANSACTION)")
            let emptyTransactions = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION WHERE Z_PK NOT IN (SELECT ZTRANSACTIONID FROM ACHANGE)")
            let inserted = Set(try Int64.fetchAll(db, sql: "SELECT ZENTITYPK FROM ACHANGE WHERE ZCHANGETYPE = 0"))
            let rows = Set(try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZNOTE"))
            return Shape(notes: notes, transactions: transactions,
                         consistent: orphanChanges == 0 && emptyTransactions == 0 && inserted == rows)
        }
    }

    @Test("killed before its Nth write or sync, for every N", arguments: ["pwrite64", "fdatasync"])
    func killAtEveryWrite(call: String) throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "first", "--body", "kept"]).exitCode == 0)
        var killed = 0
        for n in 1...500 {
            let before = try shape(of: store)
            let trace = folder.url.appendingPathComponent("strace-\(n)").path
            let result = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "note \(n)", "--body", "body"],
                                                 launcher: ["strace", "-f", "-qq", "-o", trace, "-e", "trace=\(call)",
                                                            "-e", "inject=\(call):signal=KILL:when=\(n)"])
            let after = try shape(of: store)
            #expect(after.consistent, "killed before \(call) \(n): \(after)")
            #expect(after.notes == after.transactions, "killed before \(call) \(n): \(after)")
            guard result.exitCode != 0 else {
                // Fewer than n such calls: the save ran whole, once.
                #expect(after.notes == before.notes + 1)
                break
            }
            killed += 1
            #expect(after.notes == before.notes || after.notes == before.notes + 1, "killed before \(call) \(n)")
            #expect(try String(contentsOfFile: trace, encoding: .utf8).contains("+++ killed by SIGKILL +++"), "\(call) \(n): \(result.standardError)")
        }
        #expect(killed > 0)
    }
}
