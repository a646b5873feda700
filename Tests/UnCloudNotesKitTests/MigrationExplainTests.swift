import Foundation
import GRDB
@testable import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// `store migrate --dry-run --explain` promises the SQL the migration runs, parameters written in:
/// run by hand, statement by statement on connections of its own, it must make the same store
/// the migration makes.
@Suite("the explained SQL of a migration, run by hand, makes the migrated store")
struct MigrationExplainTests {
    @Test("the chapter's versions: v1 -> v2 in place, v2 -> v3 with a mapping model, v1 -> v4 and v2 -> v4 fused, v3 -> v4 with the custom policy",
          arguments: [("v1", "v2"), ("v2", "v3"), ("v1", "v4"), ("v2", "v4"), ("v3", "v4")])
    func chapterVersions(from: String, to: String) throws {
        let folder = try TemporaryFolder()
        let model = try UnCloudNotesModel.load()
        let mappings = try UnCloudNotesModel.loadMappingModels(for: model)
        let target = try UnCloudNotesModel.resolveVersion(named: to, in: model)
        let migrator = { (url: URL) in UnCloudNotesModel.migrator(for: url, model: model, target: target, mappingModels: mappings) }
        try checkReplay(of: try ProjectFixtures.copyStore(from, into: folder, as: "n.sqlite"), in: folder, migrator: migrator)
    }

    @Test("any model: wibosco's store 1 -> 2 with Xcode's mapping model", SharedFixtures.required)
    func wibosco() throws {
        let folder = try TemporaryFolder()
        let fixture = SharedFixtures.url("wibosco-migration-example")
        let model = try ModelFileReader.read(at: fixture.appendingPathComponent("CoreDataMigration_Example.xcdatamodeld"))
        let mappings = try MappingModelReader.readAll(in: fixture.appendingPathComponent("Mappings"), models: model)
        let store = try folder.copyStore(fixture.appendingPathComponent("stores/CoreDataMigration_Example_1.sqlite"), as: "Example.sqlite")
        try checkReplay(of: store, in: folder) { url in
            StoreMigrator(storeURL: url, model: model, target: model.versions[1], mappingModels: mappings)
        }
    }

    @Test("two passes: a per-object v3 -> v4 policy splits v1 -> v4 after the fused v1 -> v3; each pass reads what the one before wrote")
    func twoPasses() throws {
        let folder = try TemporaryFolder()
        let model = try UnCloudNotesModel.load()
        let mappings = try UnCloudNotesModel.loadMappingModels(for: model)
        var policies = MigrationPolicyRegistry()
        policies.register(ObjectByObjectV3toV4Policy.self, as: AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        let store = try ProjectFixtures.copyStore("v1", into: folder, as: "n.sqlite")
        let explanation = try checkReplay(of: store, in: folder, passes: 2) { url in
            StoreMigrator(storeURL: url, model: model, target: model.versions[3], mappingModels: mappings, policies: policies)
        }
        let working = store.path + ".migrating"
        #expect(explanation.passes.map(\.steps) == [0..<2, 2..<3])
        #expect(explanation.passes.map(\.reads) == [store.path, working])
        #expect(explanation.passes.map(\.writes) == [working + "-next", working + "-next"])
        #expect(explanation.passes.allSatisfy { !$0.isInPlace })
    }

    /// Explains the migration of `store`, migrates a copy of it for reference, then runs the
    /// explained statements by hand, pass after pass, and compares the file they leave with the
    /// migrated one.
    @discardableResult
    private func checkReplay(of store: URL, in folder: TemporaryFolder, passes: Int = 1,
                             migrator: (URL) -> StoreMigrator) throws -> MigrationExplanation {
        let before = try Data(contentsOf: store)
        let reference = try TemporaryFolder()
        let migrated = try reference.copyStore(store)
        try migrator(migrated).migrateIfNeeded()

        let explanation = try #require(try migrator(store).explain())
        // Explaining only reads the store, and leaves nothing beside it.
        #expect(try Data(contentsOf: store) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [store.lastPathComponent])
        #expect(explanation.passes.count == passes)
        var result = store
        for pass in explanation.passes {
            #expect(pass.statistics != nil)
            #expect(!pass.statements.contains { $0.sql.contains("?") && !$0.sql.contains("'") }, "parameters are written in")
            #expect(pass.statements.allSatisfy { !$0.file.contains("uncloudnotes-explain") }, "files are named as the store's")
            try replay(pass)
            result = URL(fileURLWithPath: pass.writes)
            if !pass.isInPlace {
                // What the migration does between passes: the new file becomes the working copy.
                let working = URL(fileURLWithPath: String(pass.writes.dropLast("-next".count)))
                try? FileManager.default.removeItem(at: working)
                try FileManager.default.moveItem(at: result, to: working)
                result = working
            }
        }
        #expect(explanation.passes.first?.isInPlace == (result == store))
        #expect(try dump(result) == dump(migrated))
        #expect(try dump(result).contains { $0.hasPrefix("Z_METADATA: ") })
        return explanation
    }

    /// Runs each statement on the connection it names (temporary tables and the attached source
    /// belong to one), with the engine's SQL functions and the pass's Swift functions registered.
    private func replay(_ pass: MigrationExplanation.Pass) throws {
        var connections: [Int: DatabaseQueue] = [:]
        for statement in pass.statements {
            if connections[statement.connection] == nil {
                var configuration = Configuration()
                // The recorded BEGIN and COMMIT come as statements of their own, in separate accesses.
                configuration.allowsUnsafeTransactions = true
                configuration.prepareDatabase { db in
                    StoreSQLFunctions.register(in: db)
                    for function in pass.functions { db.add(function: function.databaseFunction(argumentCount: function.argumentCount(in: pass))) }
                }
                connections[statement.connection] = try DatabaseQueue(path: statement.file, configuration: configuration)
            }
            try connections[statement.connection]?.writeWithoutTransaction { db in try db.execute(sql: statement.sql) }
        }
        for connection in connections.values { try connection.close() }
    }

    /// Every schema entry and every row of every table, as text.
    private func dump(_ url: URL) throws -> [String] {
        let database = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? database.close() }
        return try database.read { db in
            let schema = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name").map { "schema: \($0)" }
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            return try schema + tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedSQLIdentifier) ORDER BY 1").map { "\(table): \($0)" }
            }
        }
    }
}

private extension MigrationFunction {
    /// How many arguments the pass's SQL calls the function with (SQLite registers a function per count).
    func argumentCount(in pass: MigrationExplanation.Pass) -> Int {
        for statement in pass.statements {
            guard let call = statement.sql.range(of: "\(name)(") else { continue }
            var depth = 1, commas = 0
            for character in statement.sql[call.upperBound...] {
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 } else if character == ",", depth == 1 { commas += 1 }
                if depth == 0 { break }
            }
            return commas + 1
        }
        return -1
    }
}
