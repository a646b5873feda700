import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// A filter that holds for every object selects nothing out: its mapping keeps the source's keys
/// (and with them what is keyed by them, such as the search index) rather than numbering anew.
@Suite struct FilterKeysTests {
    static let filtersOfEveryObject: [ObjectPredicate] = [
        .constant(true),
        .and([.constant(true), .constant(true)]),
        .not(.constant(false)),
        .or([.constant(true), .comparison(.keyPath(base: nil, components: ["title"]), .equal, .constant(.string("x")), [])]),
    ]

    @Test("a filter that holds for every note (TRUEPREDICATE and its compound forms) keeps the notes' source keys, gaps included",
          arguments: filtersOfEveryObject)
    func filterOfEveryObjectKeepsSourceKeys(filter: ObjectPredicate) throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 2, in: folder)
        let source = try PersistentStore.open(at: url, model: AppStores.version(2))
        try source.database.write { db in try db.execute(sql: "DELETE FROM ZNOTE WHERE Z_PK = 1") }
        let sourceKeys = try source.database.read { db in try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZNOTE ORDER BY Z_PK") }
        try source.close()
        let mappings = try UnCloudNotesModel.loadMappingModels(for: AppStores.model)
        var mapping = try #require(MappingModel.find(in: mappings, from: AppStores.version(2), to: AppStores.version(3)))
        let notes = try #require(mapping.entityMappings.firstIndex { $0.sourceEntityName == "Note" && $0.destinationEntityName == "Note" })
        mapping.entityMappings[notes].filterPredicate = filter
        let destination = folder.url.appendingPathComponent("v3.sqlite")
        try MigrationManager.migrateStore(from: url, sourceModel: AppStores.version(2), to: destination,
                                          destinationModel: AppStores.version(3), mappingModel: mapping,
                                          policies: UnCloudNotesModel.migrationPolicies)
        let migrated = try PersistentStore.open(at: destination, model: AppStores.version(3))
        let keys = try migrated.database.read { db in try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZNOTE ORDER BY Z_PK") }
        try migrated.close()
        #expect(sourceKeys.first == 2 && keys == sourceKeys, "\(keys) from \(sourceKeys)")
    }
}
