import Foundation
import Testing
import TestSupport

/// `store migrate` on an old store whose rows do not follow its model. The migration selects rows
/// by their entity number, so a row naming no entity of its table used to be skipped silently (an
/// attachment lost); an unreadable `Z_PRIMARYKEY` row trapped in GRDB's decoding. Now each is
/// refused in one line naming the row, and the store is unchanged.
@Suite("uncloudnotes store migrate on damaged rows")
struct MigrationDamageTests {
    /// Damages a copy of a project fixture, migrates it, and checks the refusal.
    private func expectRefusedMigration(of fixture: String, damage: String, message: String, arguments: [String] = []) throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore(fixture, into: folder)
        try StoreDamage.apply(sql: damage, to: store)
        let before = try Data(contentsOf: store)
        let result = try BuiltExecutable.run(["store", "migrate", store.path] + arguments)
        #expect(!result.endedBySignal)
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("\(store.path): the store does not match its model: \(message)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try Data(contentsOf: store) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!left.contains { $0.contains(".migrating") || $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(left)")
    }

    @Test("a row of no entity of its table fails the v3 -> v4 migration (custom policy)",
          arguments: [
              ("UPDATE ZATTACHMENT SET Z_ENT = NULL WHERE Z_PK = 2", "row 2 of ZATTACHMENT has Z_ENT NULL"),
              ("UPDATE ZATTACHMENT SET Z_ENT = 2 WHERE Z_PK = 3", "row 3 of ZATTACHMENT has Z_ENT 2"),
              ("UPDATE ZNOTE SET Z_ENT = 7 WHERE Z_PK = 1", "row 1 of ZNOTE has Z_ENT 7"),
          ])
    func rowOfNoEntity(damage: String, message: String) throws {
        try expectRefusedMigration(of: "v3", damage: damage, message: message)
    }

    @Test("an unreadable Z_PRIMARYKEY row fails the v1 -> v2 migration (in place)",
          arguments: [
              ("UPDATE Z_PRIMARYKEY SET Z_MAX = 'x' WHERE Z_ENT = 1", "Z_PRIMARYKEY.Z_MAX holds \"x\""),
              ("UPDATE Z_PRIMARYKEY SET Z_NAME = NULL WHERE Z_ENT = 1", "Z_PRIMARYKEY.Z_NAME holds NULL"),
          ])
    func unreadablePrimaryKeyCounter(damage: String, message: String) throws {
        // To v2 alone: the in-place step reads the counters (a chain to v4 runs as one pass that
        // numbers the new store's rows afresh, reading no counter of the old one).
        try expectRefusedMigration(of: "v1", damage: damage, message: message, arguments: ["--to", "v2"])
    }
}
