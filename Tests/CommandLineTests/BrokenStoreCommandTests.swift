import Foundation
import Testing
import TestSupport

/// The real binary on damaged stores: one line on stderr naming what differs, exit code 1, never
/// a signal (each of these used to trap in GRDB's decoding or in an overflowing `+ 1`).
@Suite("uncloudnotes on damaged stores")
struct BrokenStoreCommandTests {
    /// A store the app made (two notes, the first with an image), then damaged.
    private func damagedStore(_ damage: StoreDamage, version: String = "v5", in folder: TemporaryFolder) throws -> URL {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 6, height: 4)
        let imageArguments = ["v3", "v4", "v5"].contains(version) ? ["--image", image.path] : []
        for (title, extra) in [("first", imageArguments), ("second", [])] {
            let added = try BuiltExecutable.run(["--store", store.path, "--model-version", version,
                                                 "notes", "add", "--title", title, "--body", "b"] + extra)
            try #require(added.exitCode == 0, "\(added.standardError)")
        }
        try damage.apply(to: store)
        return store
    }

    @Test("each damage: the command that meets it exits 1 with one line saying what differs", arguments: [
        (StoreDamage.nullEntityNumber, ["notes", "list"], "the store does not match its model: row 1 of ZNOTE has Z_ENT NULL"),
        (.nullEntityNumber, ["notes", "show", "1"], "the store does not match its model: row 1 of ZNOTE has Z_ENT NULL"),
        (.textInOptimisticLock, ["notes", "delete", "1"], "the store does not match its model: ZNOTE.Z_OPT of row 1 holds \"x\""),
        (.otherEntityNumber, ["notes", "list"], "the store does not match its model: row 1 of ZNOTE has Z_ENT 2"),
        (.droppedColumn, ["notes", "list"], "the store does not match its model: table ZATTACHMENT has no column ZCAPTION"),
        (.droppedTable, ["notes", "add", "--title", "x", "--body", ""], "the store does not match its model: it has no table ZATTACHMENT"),
        (.retypedColumn, ["notes", "list"], "the store does not match its model: column ZNOTE.ZTITLE is declared BLOB"),
        (.textInOptimisticLock, ["notes", "list"], "the store does not match its model: ZNOTE.Z_OPT of row 1 holds \"x\""),
        (.largestDisplayIndex, ["notes", "add", "--title", "x", "--body", ""], "a note's display index is 9223372036854775807"),
        (.largestPrimaryKey, ["notes", "add", "--title", "x", "--body", ""], "Z_PRIMARYKEY.Z_MAX is at the largest number it can hold"),
        (.largestOptimisticLock, ["notes", "edit", "1", "--body", "x"], "ZNOTE.Z_OPT is at the largest number it can hold"),
    ])
    func damagedStoreCommands(damage: StoreDamage, arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let store = try damagedStore(damage, in: folder)
        let result = try BuiltExecutable.run(["--store", store.path] + arguments)
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    @Test("store export fails on a damaged row rather than export it as an empty object",
          arguments: [StoreDamage.nullEntityNumber, .otherEntityNumber, .textInOptimisticLock])
    func exportDamagedStore(damage: StoreDamage) throws {
        let folder = try TemporaryFolder()
        let store = try damagedStore(damage, in: folder)
        let result = try BuiltExecutable.run(["store", "export", store.path])
        #expect(result.exitCode == 1, "\(result.standardOutput)")
        #expect(result.standardError.contains("\(store.path): the store does not match its model: "), "\(result.standardError)")
    }

    @Test("store migrate refuses a damaged old store: exit 1, the store unchanged, no .migrating, -wal or -shm left",
          arguments: [StoreDamage.droppedTable, .retypedColumn])
    func migrateDamagedStore(damage: StoreDamage) throws {
        let folder = try TemporaryFolder()
        let store = try damagedStore(damage, version: "v3", in: folder)
        let before = try Data(contentsOf: store)
        let result = try BuiltExecutable.run(["store", "migrate", store.path])
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("\(store.path): the store does not match its model: "), "\(result.standardError)")
        #expect(try Data(contentsOf: store) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!left.contains { $0.contains(".migrating") || $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(left)")
    }
}
