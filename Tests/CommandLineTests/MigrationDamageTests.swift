import Foundation
import Testing
import TestSupport

/// `store migrate` on an old store whose rows do not follow its model: the migration selects rows
/// by their entity number, so a row naming no entity of its table used to be skipped silently
/// (an attachment lost). Now the migration is refused naming the row, and the store is unchanged.
@Suite("uncloudnotes store migrate on damaged rows")
struct MigrationDamageTests {
    @Test("a row of no entity of its table fails the v3 -> v4 migration (custom policy) with one line; the store is unchanged",
          arguments: [
              ("UPDATE ZATTACHMENT SET Z_ENT = NULL WHERE Z_PK = 2", "row 2 of ZATTACHMENT has Z_ENT NULL"),
              ("UPDATE ZATTACHMENT SET Z_ENT = 2 WHERE Z_PK = 3", "row 3 of ZATTACHMENT has Z_ENT 2"),
              ("UPDATE ZNOTE SET Z_ENT = 7 WHERE Z_PK = 1", "row 1 of ZNOTE has Z_ENT 7"),
          ])
    func rowOfNoEntity(damage: String, message: String) throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder)
        try StoreDamage.apply(sql: damage, to: store)
        let before = try Data(contentsOf: store)
        let result = try BuiltExecutable.run(["store", "migrate", store.path])
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(!result.endedBySignal)
        #expect(result.standardError.contains("\(store.path): the store does not match its model: \(message)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try Data(contentsOf: store) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(!left.contains { $0.contains(".migrating") || $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }, "\(left)")
    }

    @Test("an unreadable Z_PRIMARYKEY row fails the v1 -> v2 migration (in place) with one line, never a signal; the store is unchanged",
          arguments: [
              ("UPDATE Z_PRIMARYKEY SET Z_MAX = 'x' WHERE Z_ENT = 1", "Z_PRIMARYKEY.Z_MAX holds \"x\""),
              ("UPDATE Z_PRIMARYKEY SET Z_NAME = NULL WHERE Z_ENT = 1", "Z_PRIMARYKEY.Z_NAME holds NULL"),
          ])
    func unreadablePrimaryKeyCounter(damage: String, message: String) throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        try StoreDamage.apply(sql: damage, to: store)
        let before = try Data(contentsOf: store)
        let result = try BuiltExecutable.run(["store", "migrate", store.path])
        #expect(!result.endedBySignal)
        #expect(result.exitCode == 1, "\(result.standardError)")
        #expect(result.standardError.contains("the store does not match its model: \(message)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try Data(contentsOf: store) == before)
    }
}
