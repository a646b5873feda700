import Foundation
import GRDB
import Testing
import TestSupport

/// `notes import` reads and writes a big file in batches, yet stays all or nothing: a bad note
/// near the end, a file cut short, or a kill in the middle (after batches were written) leaves
/// the store exactly as it was, its history included, and the same import then runs whole.
@Suite("notes import of a big file: all or nothing")
struct NotesImportAtomicityTests {
    /// More notes than two batches, with bodies long enough that a batch's pages leave SQLite's
    /// cache for the write-ahead log before the commit.
    private static let noteCount = 2_500

    /// A v5 export of `noteCount` notes; `emptyTitleAt` (1-based) gets an empty title.
    private static func export(emptyTitleAt bad: Int? = nil) throws -> Data {
        let body = String(repeating: "a line of the note's body. ", count: 110)
        let notes: [[String: Any]] = (1...noteCount).map { number in
            ["title": number == bad ? " " : "note \(number)", "body": body, "images": [Any](), "pinned": number % 7 == 0,
             "tags": ["tag\(number % 5)"], "identifier": UUID().uuidString,
             "dateCreated": "2026-01-01T00:00:00Z", "dateModified": "2026-01-02T00:00:00Z"]
        }
        let archive: [String: Any] = ["format": "uncloudnotes-notes", "formatVersion": 2, "modelVersion": "UnCloudNotesDataModel v5", "notes": notes]
        return try JSONSerialization.data(withJSONObject: archive, options: [.sortedKeys])
    }

    /// Everything `store export` prints and the history's row counts: the store as a user and a
    /// sync peer see it.
    private struct Snapshot: Equatable {
        var export: String
        var transactions: Int
        var changes: Int
    }

    private func snapshot(_ store: URL) throws -> Snapshot {
        let export = try BuiltExecutable.run(["--store", store.path, "store", "export"])
        #expect(export.exitCode == 0, "\(export.standardError)")
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in
            Snapshot(export: export.standardOutput,
                     transactions: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ATRANSACTION") ?? -1,
                     changes: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE") ?? -1)
        }
    }

    /// A store holding one note, and its snapshot.
    private func storeWithOneNote(in folder: TemporaryFolder) throws -> (URL, Snapshot) {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "kept", "--body", "before", "--tag", "tag1"]).exitCode == 0)
        return (store, try snapshot(store))
    }

    private func importWhole(_ file: URL, into store: URL, before: Snapshot) throws {
        let result = try BuiltExecutable.run(["--store", store.path, "notes", "import", file.path])
        #expect(result.exitCode == 0 && result.standardOutput == "imported \(Self.noteCount) notes\n", "\(result.standardError)")
        let after = try snapshot(store)
        #expect(after.transactions == before.transactions + 1, "the import is one history transaction")
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "list", "--tag", "tag1"]).standardOutput
            .split(separator: "\n").count == Self.noteCount / 5 + 1)
    }

    @Test("a bad note near the end, or a file cut short, leaves the store as it was")
    func badNoteNearTheEnd() throws {
        let folder = try TemporaryFolder()
        let (store, before) = try storeWithOneNote(in: folder)
        let bad = folder.url.appendingPathComponent("bad.json")
        try Self.export(emptyTitleAt: Self.noteCount - 10).write(to: bad)
        let refused = try BuiltExecutable.run(["--store", store.path, "notes", "import", bad.path])
        #expect(refused.exitCode == 1)
        #expect(refused.standardError == "uncloudnotes: \(bad.path): note \(Self.noteCount - 10) has an empty title\n")
        #expect(try snapshot(store) == before)

        let good = try Self.export()
        let cut = folder.url.appendingPathComponent("cut.json")
        try good.prefix(good.count - 300).write(to: cut)
        let truncated = try BuiltExecutable.run(["--store", store.path, "notes", "import", cut.path])
        #expect(truncated.exitCode == 1)
        #expect(truncated.standardError.hasPrefix("uncloudnotes: \(cut.path): not an UnCloudNotes export (")
            && truncated.standardError.split(separator: "\n").count == 1, "\(truncated.standardError)")
        #expect(try snapshot(store) == before)

        let file = folder.url.appendingPathComponent("notes.json")
        try good.write(to: file)
        try importWhole(file, into: store, before: before)
    }

    @Test("killed in the middle, after batches were written, the store is as it was; the import then runs whole",
          .enabled(if: SyscallTrace.straceWorks, "skipped: strace cannot trace here (strace -f true failed): install strace and allow ptrace"))
    func killedInTheMiddle() throws {
        let folder = try TemporaryFolder()
        let (store, before) = try storeWithOneNote(in: folder)
        let file = folder.url.appendingPathComponent("notes.json")
        let data = try Self.export()
        try data.write(to: file)
        // The file is read 64 KB at a time: the kill comes at its read about four fifths of the way in.
        let killAt = data.count / 65_536 * 4 / 5
        let trace = folder.url.appendingPathComponent("strace").path
        let killed = try BuiltExecutable.run(["--store", store.path, "notes", "import", file.path],
                                             launcher: ["strace", "-f", "-qq", "-o", trace, "-P", file.path, "-e", "trace=read",
                                                        "-e", "inject=read:signal=KILL:when=\(killAt)"])
        #expect(killed.exitCode != 0)
        #expect(try String(contentsOfFile: trace, encoding: .utf8).contains("+++ killed by SIGKILL +++"))
        // Batches were written before the kill: the write-ahead log holds megabytes of pages of
        // the transaction that never committed (a batch is about 3 MB of text).
        let log = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int ?? 0
        #expect(log > 1_000_000, "write-ahead log of \(log) bytes at the kill")
        #expect(try snapshot(store) == before)
        try importWhole(file, into: store, before: before)
    }
}
