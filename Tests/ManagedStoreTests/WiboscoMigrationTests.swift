import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Migrations of stores Apple's Core Data wrote, with the mapping model Xcode wrote for them.
@Suite("wibosco's real stores migrate with their mapping model")
struct WiboscoMigrationTests {
    private var fixture: URL { SharedFixtures.url("wibosco-migration-example") }

    @Test("store 1 -> 2 with Migration1to2: every post keeps its values, color becomes hexColor", SharedFixtures.required)
    func version1To2() throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("Example_1.sqlite")
        try FileManager.default.copyItem(at: fixture.appendingPathComponent("stores/CoreDataMigration_Example_1.sqlite"), to: source)
        let models = try ModelFileReader.read(at: fixture.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        let (v1, v2) = (models.versions[0], models.versions[1])
        #expect(try StoreMetadata.read(storeAt: source).isCompatible(with: v1))
        let mapping = try MappingModelReader.read(at: fixture.appendingPathComponent("Mappings/Migration1to2.xcmappingmodel"), models: models)
        #expect(mapping.maps(from: v1, to: v2))

        let expected = try DatabaseQueue(path: source.path).read { db in
            try Row.fetchAll(db, sql: "SELECT ZPOSTID, ZDATE, ZCOLOR FROM ZPOST ORDER BY ZPOSTID").map { row in
                [row["ZPOSTID"] as String? ?? "-", (row["ZDATE"] as Double?).map { String($0) } ?? "-", row["ZCOLOR"] as String? ?? "-"]
            }
        }
        #expect(expected.count == 1_001)

        let destination = folder.url.appendingPathComponent("Example_2.sqlite")
        try MigrationManager.migrateStore(from: source, sourceModel: v1, to: destination, destinationModel: v2, mappingModel: mapping)
        let store = try PersistentStore.open(at: destination, model: v2)
        defer { try? store.close() }
        #expect(store.metadata.isCompatible(with: v2))
        let posts = try ManagedObjectContext(store: store).fetch(FetchRequest(entityName: "Post", sortDescriptors: [SortDescriptor("postID")]))
        let migrated = posts.map { post -> [String] in
            var date = "-"
            if case .date(let value)? = post.value(forKey: "date") { date = String(value.timeIntervalSinceReferenceDate) }
            return [post.value(forKey: "postID")?.displayText ?? "-", date, post.value(forKey: "hexColor")?.displayText ?? "-"]
        }
        #expect(migrated == expected)
    }
}
