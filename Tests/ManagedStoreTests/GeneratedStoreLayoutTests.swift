import Foundation
import GRDB
@testable import ManagedStore
import Testing
import TestSupport

/// A trial migration proves something about real stores only if the generated store is laid out
/// as Apple's Core Data lays out a store of that version. Where Apple-written stores exist
/// (wibosco's versions 1 to 3), the generated store has the same tables, columns, entity numbers
/// and version hashes, and migrating it and Apple's store along the same route gives the same
/// layout (issue #36).
@Suite("model check: generated stores laid out as Apple's")
struct GeneratedStoreLayoutTests {
    private static var wibosco: URL { SharedFixtures.url("wibosco-migration-example") }

    /// Tables and their columns (name and declared type), Core Data's entity numbering, and the
    /// model version hashes the metadata records.
    private struct Layout: Equatable, CustomStringConvertible {
        var columns: [String: [String]] = [:]
        var entities: [String] = []
        var hashes: [String: Data] = [:]

        var description: String { "tables \(columns.keys.sorted()), entities \(entities), hashed \(hashes.keys.sorted())" }
    }

    private static func layout(of url: URL) throws -> Layout {
        let queue = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var layout = Layout()
        try queue.read { db in
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                layout.columns[table] = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))").map { row in
                    "\(row["name"] as String) \((row["type"] as String).uppercased())"
                }.sorted()
            }
            layout.entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
                .map { "\($0["Z_ENT"] as Int) \($0["Z_NAME"] as String) super \($0["Z_SUPER"] as Int)" }
        }
        layout.hashes = try StoreMetadata.read(storeAt: url).versionHashes
        return layout
    }

    /// A copy of a fixture store in `folder` (opening the original would give it companions).
    private static func copy(_ name: String, into folder: TemporaryFolder) throws -> URL {
        let copy = folder.url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: wibosco.appendingPathComponent("stores/\(name)"), to: copy)
        return copy
    }

    @Test("a generated store of each version Apple wrote a store of has Apple's tables, columns, entity numbers and version hashes",
          SharedFixtures.required, arguments: [1, 2, 3])
    func sameLayoutAsApple(version: Int) throws {
        let folder = try TemporaryFolder()
        let model = try ModelFileReader.read(at: Self.wibosco.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        let apple = try Self.copy("CoreDataMigration_Example_\(version).sqlite", into: folder)
        let generated = folder.url.appendingPathComponent("generated.sqlite")
        try RepresentativeStore.write(at: generated, model: model.versions[version - 1])
        let theirs = try Self.layout(of: apple), ours = try Self.layout(of: generated)
        #expect(!theirs.columns.isEmpty && !theirs.entities.isEmpty && !theirs.hashes.isEmpty)
        #expect(ours.columns.filter { $0.key.hasPrefix("Z") && theirs.columns[$0.key] != nil } == theirs.columns.filter { $0.key.hasPrefix("Z") },
                "tables or columns differ: ours \(ours.columns), Apple's \(theirs.columns)")
        #expect(Set(ours.columns.keys).isSuperset(of: theirs.columns.keys), "Apple's tables \(theirs.columns.keys.sorted()), ours \(ours.columns.keys.sorted())")
        #expect(ours.entities == theirs.entities)
        #expect(ours.hashes == theirs.hashes, "version hashes differ")
    }

    @Test("Apple's v3 store and the generated v3 store, migrated along the same route, end in the same layout, every object kept",
          SharedFixtures.required)
    func sameMigrationAsApple() throws {
        let folder = try TemporaryFolder()
        let model = try ModelFileReader.read(at: Self.wibosco.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        let mappings = try ModelCheck.mappingModelFiles(in: Self.wibosco.appendingPathComponent("Mappings"))
        let mappingModels = MappingModelFiles(urls: mappings, model: model).mappingModels
        let chain = MigrationChain(model: model, mappingModels: mappingModels)
        let policies = TrialMigration.Policies(registry: MigrationPolicyRegistry(), isAppPolicy: { _ in false })
        let apple = try Self.copy("CoreDataMigration_Example_3.sqlite", into: folder)
        let generated = folder.url.appendingPathComponent("generated.sqlite")
        try RepresentativeStore.write(at: generated, model: model.versions[2])
        var layouts: [Layout] = []
        for store in [apple, generated] {
            let trial = TrialMigration.run(named: store.lastPathComponent, storeAt: store, chain: chain, mappingModels: mappingModels, policies: policies)
            #expect(trial.outcome == .passed && trial.objectsAfter == trial.objectsBefore && trial.objectsBefore > 0, "\(trial.problems)")
            layouts.append(try Self.layout(of: store))
        }
        #expect(layouts[0] == layouts[1], "after the migration: Apple's \(layouts[0]), generated \(layouts[1])")
        #expect(layouts[0].hashes == (try StoreMetadata.read(storeAt: generated)).versionHashes)
        #expect(layouts[0].hashes == model.current.entityVersionHashes)
    }
}
