import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// A chain of steps runs as one pass from the store into one new file when its mappings compose;
/// a per-object policy splits it.
@Suite("Chains in one pass")
struct ChainPassTests {
    let mappings = try! UnCloudNotesModel.loadMappingModels(for: AppStores.model)

    /// Migrates through the stack to v4 (the chapter's chains; v5's own are in `V5MigrationTests`),
    /// returning the store's rows and the console lines the app prints.
    private func migrateThroughStack(_ url: URL, policies: MigrationPolicyRegistry) throws -> (rows: [String], messages: [String]) {
        var messages: [String] = []
        let migrator = StoreMigrator(storeURL: url, model: AppStores.model, target: AppStores.version(4), mappingModels: mappings, policies: policies)
        let console = MigrationConsole()
        try migrator.migrateIfNeeded { messages += console.lines(for: $0, store: url) }
        return (try StoreDump.contents(of: PersistentStore.open(at: url, model: AppStores.version(4))), messages)
    }

    /// The same migration one version at a time with the manager, every version written.
    private func migrateStepByStep(_ url: URL, from version: Int, in folder: TemporaryFolder) throws -> [String] {
        var current = url
        for step in version..<4 {
            let next = folder.url.appendingPathComponent("step-\(step + 1).sqlite")
            if step == 1 {
                try FileManager.default.copyItem(at: current, to: next)
                let inferred = try MappingInference.infer(from: AppStores.version(1), to: AppStores.version(2))
                #expect(try InPlaceMigration.migrate(storeAt: next, from: AppStores.version(1), to: AppStores.version(2), inferred: inferred))
            } else {
                let mapping = try #require(MappingModel.find(in: mappings, from: AppStores.version(step), to: AppStores.version(step + 1)))
                try MigrationManager.migrateStore(from: current, sourceModel: AppStores.version(step), to: next,
                                                  destinationModel: AppStores.version(step + 1), mappingModel: mapping,
                                                  policies: UnCloudNotesModel.migrationPolicies)
            }
            current = next
        }
        return try StoreDump.contents(of: PersistentStore.open(at: current, model: AppStores.version(4)))
    }

    @Test("v1 -> v4 and v2 -> v4 run as one pass and give the store the steps give one by one", arguments: [1, 2])
    func onePass(from version: Int) throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: version, in: folder)
        let expected = try migrateStepByStep(url, from: version, in: TemporaryFolder())
        let (rows, messages) = try migrateThroughStack(url, policies: UnCloudNotesModel.migrationPolicies)
        // Said as what runs: one pass through every version, completed once.
        let versions = (version...4).map { AppStores.version($0).name }.joined(separator: " → ")
        #expect(messages.filter { $0.hasPrefix("Migrating store ") } == [
            "Migrating store \(url.path) from \(AppStores.version(version).name) to \(AppStores.version(4).name) in one pass of \(4 - version) steps: \(versions)",
        ], "\(messages)")
        #expect(messages.filter { $0 == "Migration Completed Successfully" }.count == 1, "\(messages)")
        #expect(rows == expected, "\(Set(rows).symmetricDifference(expected).sorted().map { String($0.prefix(300)) })")
        #expect(rows.contains { $0.contains("ZCAPTION:\"milk, eggs\"") } == (version == 2))
    }

    @Test("the new store has every index its version declares (built after the rows), as a new store of that version has", arguments: [1, 2, 3])
    func indexesRebuilt(from version: Int) throws {
        func indexes(_ store: PersistentStore) throws -> [String] {
            try store.database.read { db in
                try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            }
        }
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: version, in: folder)
        _ = try migrateThroughStack(url, policies: UnCloudNotesModel.migrationPolicies)
        let fresh = try PersistentStore.create(at: folder.url.appendingPathComponent("fresh.sqlite"), model: AppStores.version(4))
        let expected = try indexes(fresh)
        #expect(expected.contains { $0.contains("Z_Note_byDateCreated") })
        #expect(try indexes(PersistentStore.open(at: url, model: AppStores.version(4))) == expected)
    }

    @Test("a per-object policy splits the chain: v2 -> v3 runs alone, then v3 -> v4 object by object")
    func perObjectPolicySplits() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 2, in: folder)
        let expected = try migrateStepByStep(url, from: 2, in: TemporaryFolder())
        var policies = MigrationPolicyRegistry()
        policies.register(ObjectByObjectV3toV4Policy.self, as: AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        let (rows, messages) = try migrateThroughStack(url, policies: policies)
        #expect(!messages.contains { $0.contains("in one pass") }, "\(messages)")
        #expect(messages.filter { $0 == "Migration Completed Successfully" }.count == 2, "\(messages)")
        #expect(rows == expected, "\(Set(rows).symmetricDifference(expected).sorted().map { String($0.prefix(300)) })")
    }
}
