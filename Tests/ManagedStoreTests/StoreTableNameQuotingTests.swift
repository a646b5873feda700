import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// A table of the store's own that no model owns is copied by a migration under its name as the
/// file has it, whatever the name holds: the engine's `\(identifier:)` doubles a double quote
/// inside a name (GRDB's own leaves it, which would end the quoted name early and fail the copy).
@Suite("Names read from a store file in built SQL")
struct StoreTableNameQuotingTests {
    @Test("a table named with a double quote is copied by a migration, with its rows")
    func quotedTableNameCopies() throws {
        let folder = try TemporaryFolder()
        let source = try LibraryModel.createStore(in: folder)
        let model = source.model
        try source.close()
        let odd = #"notes "kept" here"#
        try DatabaseQueue(path: source.url.path).write { db in
            try db.execute(sql: #"CREATE TABLE "notes ""kept"" here" (value TEXT)"#)
            try db.execute(sql: #"INSERT INTO "notes ""kept"" here" (value) VALUES ('one'), ('two')"#)
        }
        let destination = folder.url.appendingPathComponent("copy.sqlite")
        try MigrationManager.migrateStore(from: source.url, sourceModel: model, to: destination, destinationModel: model,
                                          mappingModel: try MappingInference.infer(from: model, to: model).mappingModel)
        let copied = try DatabaseQueue(path: destination.path).read { db in
            try String.fetchAll(db, sql: #"SELECT value FROM "notes ""kept"" here" ORDER BY value"#)
        }
        #expect(copied == ["one", "two"], "\(odd)")
    }
}
