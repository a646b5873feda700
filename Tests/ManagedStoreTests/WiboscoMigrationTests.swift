import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Migrations of stores Apple's Core Data wrote, with the mapping model Xcode wrote for them.
@Suite("wibosco's real stores migrate with their mapping model")
struct WiboscoMigrationTests {
    private var fixture: URL { SharedFixtures.url("wibosco-migration-example") }

    /// A copy of Apple's version 1 store, the model, and each post's values read with SQL.
    private func version1Store(in folder: TemporaryFolder) throws -> (url: URL, models: VersionedModel, posts: [[String]]) {
        let url = folder.url.appendingPathComponent("Example.sqlite")
        try FileManager.default.copyItem(at: fixture.appendingPathComponent("stores/CoreDataMigration_Example_1.sqlite"), to: url)
        let models = try ModelFileReader.read(at: fixture.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        let posts = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT ZPOSTID, ZDATE, ZCOLOR FROM ZPOST ORDER BY ZPOSTID").map { row in
                [row["ZPOSTID"] as String? ?? "-", (row["ZDATE"] as Double?).map { String($0) } ?? "-", row["ZCOLOR"] as String? ?? "-"]
            }
        }
        return (url, models, posts)
    }

    /// Each post of a version 2 store: postID, date (seconds since 2001), hexColor.
    private func version2Posts(_ url: URL, _ model: ManagedObjectModel) throws -> [[String]] {
        let store = try PersistentStore.open(at: url, model: model)
        defer { try? store.close() }
        #expect(store.metadata.isCompatible(with: model))
        let context = ManagedObjectContext(store: store)
        return try context.fetch(FetchRequest(entityName: "Post", sortDescriptors: [SortDescriptor("postID")])).map { post in
            var date = "-"
            if case .date(let value)? = post.value(forKey: "date") { date = String(value.timeIntervalSinceReferenceDate) }
            return [post.value(forKey: "postID")?.displayText ?? "-", date, post.value(forKey: "hexColor")?.displayText ?? "-"]
        }
    }

    @Test("store 1 -> 2 with Migration1to2: every post keeps its values, color becomes hexColor", SharedFixtures.required)
    func version1To2() throws {
        let folder = try TemporaryFolder()
        let (source, models, expected) = try version1Store(in: folder)
        let (v1, v2) = (models.versions[0], models.versions[1])
        #expect(try StoreMetadata.read(storeAt: source).isCompatible(with: v1))
        #expect(expected.count == 1_001)
        let mapping = try MappingModelReader.read(at: fixture.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel"), models: models)
        #expect(mapping.maps(from: v1, to: v2))

        let destination = folder.url.appendingPathComponent("Example_2.sqlite")
        try MigrationManager.migrateStore(from: source, sourceModel: v1, to: destination, destinationModel: v2, mappingModel: mapping)
        #expect(try version2Posts(destination, v2) == expected)
    }

    @Test("the stack takes store 1 to version 2 with the mapping models of the Mappings folder", SharedFixtures.required)
    func stackToVersion2() throws {
        let folder = try TemporaryFolder()
        let (url, models, expected) = try version1Store(in: folder)
        let mappings = try MappingModelReader.readAll(in: fixture.appendingPathComponent("Mappings"), models: models)
        #expect(mappings.map(\.name) == ["Migration1to2", "Migration2to3"])
        let plan = try StoreMigrator(storeURL: url, model: models, target: models.versions[1], mappingModels: mappings).migrateIfNeeded()
        #expect(plan?.steps.map(\.kindDescription) == ["mapping model Migration1to2"])
        #expect(try version2Posts(url, models.versions[1]) == expected)
    }
}
