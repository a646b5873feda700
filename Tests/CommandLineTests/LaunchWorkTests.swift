import Foundation
import Testing
import TestSupport

/// A launch reads the store's metadata once and plans once: the check before the lock decides,
/// the re-check after it and the open (or the migration's first pass) reuse what it read while
/// the store is as it was. Counted on the built program with strace: SQLite opens the store
/// file read-only for each metadata read (and for a migration's read-only source), read-write
/// for the app's connection.
@Suite("A launch reads the store's metadata once", .serialized,
       .enabled(if: SyscallTrace.straceWorks, "skipped: strace cannot trace here (strace -f true failed): install strace and allow ptrace"))
struct LaunchWorkTests {
    /// The opens of the store file itself (not its `-wal`, lock or backups), in order: true for
    /// read-only; only those before the first open of a path containing `until`, when given.
    private func opensOfStore(_ arguments: [String], store: URL, until: String? = nil) throws -> [(readOnly: Bool, line: String)] {
        let folder = try TemporaryFolder()
        let trace = folder.url.appendingPathComponent("trace")
        let run = try BuiltExecutable.run(arguments, launcher: ["strace", "-f", "-qq", "-o", trace.path, "-e", "trace=open,openat", "--"])
        #expect(run.exitCode == 0, "\(run.standardError)")
        var lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        if let until {
            let boundary = try #require(lines.firstIndex { $0.contains(until) }, "nothing opened \(until)")
            lines = Array(lines[..<boundary])
        }
        return lines.filter { $0.contains("\"\(store.path)\"") }.map { (readOnly: $0.contains("O_RDONLY"), line: String($0)) }
    }

    @Test("listing the notes of a current store: one read-only open (the metadata) and the connection")
    func currentStore() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder, as: "notes.sqlite")
        let migrated = try BuiltExecutable.run(["store", "migrate", store.path])
        try #require(migrated.exitCode == 0, "\(migrated.standardError)")
        let opens = try opensOfStore(["notes", "list", "--store", store.path], store: store)
        #expect(opens.filter(\.readOnly).count == 1, "\(opens.map(\.line))")
        #expect(opens.filter { !$0.readOnly }.count == 1, "\(opens.map(\.line))")
    }

    @Test("migrating an old store: the metadata are read once before the lock; the re-check and the first pass reuse them")
    func oldStore() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder, as: "notes.sqlite")
        // Up to the first pass's new file: the check's metadata read, then the pass's read-only
        // connection on the store, which opens it with the metadata already read.
        let opens = try opensOfStore(["store", "migrate", store.path, "--to", "v4"], store: store, until: ".migrating-next")
        #expect(opens.count == 2 && opens.allSatisfy(\.readOnly), "\(opens.map(\.line))")
    }
}
