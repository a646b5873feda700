import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Apple's SampleModel2 store (persistent history, derived attribute, Decimal and URI values)
/// migrated from SampleModel2V1 to SampleModel2V2 (Author.siteURL removed, Book.cover renamed
/// frontCover): every kind of migration keeps Core Data's own tables and every value V2 keeps.
@Suite("Apple's SampleModel2 store migrates to V2 keeping its history and values")
struct SampleModel2MigrationTests {
    /// Each table's values V2 keeps, objects named by their own values rather than by primary keys
    /// (a copying migration numbers rows anew, as Core Data's does). `cover` is Book's cover column.
    private static func modelQueries(cover: String) -> [String: String] {
        [
            "ZBOOK": """
                SELECT b.ZUNIQUEID, b.Z_ENT, b.ZPAGESCOUNT, w.ZALIAS, b.ZISBLACKANDWHITE, b.ZPUBLISHEDAT, b.ZPRICE, b.ZTITLE, b.\(cover)
                FROM ZBOOK b LEFT JOIN ZWRITER w ON w.Z_PK = b.ZAUTHOR ORDER BY b.ZUNIQUEID
                """,
            "ZPAGE": """
                SELECT b.ZUNIQUEID, p.Z_ENT, p.ZISBOOKMARKED, p.ZNUMBER, p.ZCONTENT
                FROM ZPAGE p LEFT JOIN ZBOOK b ON b.Z_PK = p.ZBOOK ORDER BY b.ZUNIQUEID, p.ZNUMBER, p.ZCONTENT
                """,
            "ZFEEDBACK": "SELECT Z_ENT, ZRATING, ZAUTHORALIAS, ZCOMMENT, ZBOOKID FROM ZFEEDBACK ORDER BY ZBOOKID, ZAUTHORALIAS, ZCOMMENT, ZRATING",
            "ZWRITER": "SELECT Z_ENT, ZAGE, ZALIAS FROM ZWRITER ORDER BY ZALIAS",
        ]
    }

    /// Everything a migration must carry over, read with SQL: model rows, history rows and
    /// definitions, and Core Data's Z_PRIMARYKEY rows for the history entities.
    private struct Snapshot: Equatable {
        var modelRows: [String: [String]] = [:]
        var history: [String: [String]] = [:]
        var historySchema: [String] = []
        var historyKeys: [String] = []
    }

    private func snapshot(_ url: URL, destination: Bool) throws -> Snapshot {
        try DatabaseQueue(path: url.path).read { db in
            var snapshot = Snapshot()
            for (table, query) in Self.modelQueries(cover: destination ? "ZFRONTCOVER" : "ZCOVER") {
                snapshot.modelRows[table] = try Row.fetchAll(db, sql: query).map { Array($0.databaseValues).description }
            }
            for table in ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"] {
                snapshot.history[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY Z_PK").map(\.description)
            }
            snapshot.historySchema = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name LIKE 'A%' ORDER BY name")
            snapshot.historyKeys = try Row.fetchAll(db, sql: "SELECT * FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT").map(\.description)
            return snapshot
        }
    }

    /// The source's snapshot, read from a second untouched copy (reading may fold its -wal).
    private func expectedSnapshot(in folder: TemporaryFolder) throws -> Snapshot {
        let expected = try snapshot(SampleModel2.copyStore(into: folder, as: "Reference.sqlite"), destination: false)
        #expect(expected.modelRows["ZPAGE"]?.count == 4_970)
        #expect(expected.history["ACHANGE"]?.count == 5_468)
        #expect(expected.historyKeys.count == 3)
        return expected
    }

    @Test("the stack migrates Apple's store to V2 in place (a removed attribute, a renamed one)", SharedFixtures.required)
    func stackKeepsHistoryAndValues() throws {
        let folder = try TemporaryFolder()
        let models = try SampleModel2.versions(in: folder)
        let url = try SampleModel2.copyStore(into: folder)
        let expected = try expectedSnapshot(in: folder)
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: models.versions[0]))
        let plan = try StoreMigrator(storeURL: url, model: models).migrateIfNeeded()
        #expect(plan?.steps.map(\.kindDescription) == ["in place"])
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: models.versions[1]))
        #expect(try snapshot(url, destination: true) == expected)
    }

    @Test("a copying migration (MigrationManager, inferred mapping) carries the history into the new file",
          SharedFixtures.required)
    func copyKeepsHistoryAndValues() throws {
        let folder = try TemporaryFolder()
        let models = try SampleModel2.versions(in: folder)
        let (v1, v2) = (models.versions[0], models.versions[1])
        let source = try SampleModel2.copyStore(into: folder)
        let expected = try expectedSnapshot(in: folder)
        let destination = folder.url.appendingPathComponent("SampleModel2_V2.sqlite")
        try MigrationManager.migrateStore(from: source, sourceModel: v1, to: destination, destinationModel: v2,
                                          mappingModel: MappingInference.infer(from: v1, to: v2).mappingModel)
        #expect(try StoreMetadata.read(storeAt: destination).isCompatible(with: v2))
        let migrated = try snapshot(destination, destination: true)
        #expect(migrated.historyKeys == expected.historyKeys)
        #expect(migrated.historySchema == expected.historySchema)
        #expect(migrated.history == expected.history)
        for table in expected.modelRows.keys.sorted() {
            #expect(migrated.modelRows[table] == expected.modelRows[table], "\(table)")
        }
    }
}
