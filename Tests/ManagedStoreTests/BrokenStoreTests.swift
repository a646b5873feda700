import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Stores whose metadata names the model but whose tables or rows do not follow it: every read
/// and save refuses them with a `StoreError` naming the table, column and row, and changes
/// nothing. Before, each of these trapped inside GRDB's decoding or in an overflowing `+ 1`.
@Suite("Damaged stores")
struct BrokenStoreTests {
    /// The app's store of two notes (`TwoNoteStore`), then damaged.
    private static func damagedStore(_ damage: StoreDamage, in folder: TemporaryFolder) throws -> (URL, ManagedObjectModel) {
        let (url, model) = try TwoNoteStore.make(in: folder)
        try damage.apply(to: url)
        return (url, model)
    }

    private static func notes(in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [SortDescriptor("title")]))
    }

    @Test("a missing table or column, or a column of another type, is refused on opening; the file is untouched",
          arguments: [
              (StoreDamage.droppedColumn, StoreMismatch.missingColumn(table: "ZATTACHMENT", column: "ZCAPTION"),
               "the store does not match its model: table ZATTACHMENT has no column ZCAPTION"),
              (.droppedTable, .missingTable("ZATTACHMENT"), "the store does not match its model: it has no table ZATTACHMENT"),
              (.retypedColumn, .columnType(table: "ZNOTE", column: "ZTITLE", declared: "BLOB", expected: "VARCHAR"),
               "the store does not match its model: column ZNOTE.ZTITLE is declared BLOB, not VARCHAR"),
          ])
    func schemaMismatch(damage: StoreDamage, mismatch: StoreMismatch, message: String) throws {
        let folder = try TemporaryFolder()
        let (url, model) = try Self.damagedStore(damage, in: folder)
        let before = try Data(contentsOf: url)
        for readOnly in [false, true] {
            let error = try #require(throws: StoreError.self) {
                try PersistentStore.open(at: url, model: model, options: StoreOptions(isReadOnly: readOnly))
            }
            #expect(error.mismatch == mismatch)
            #expect(error.path == url.path)
            #expect(error.reason.hasPrefix(message), "\(error.reason)")
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(StoreFiles(url: url).existing == [url])
    }

    @Test("a row of no entity of its table, or a value its column cannot hold, fails the fetch naming the row",
          arguments: [
              (StoreDamage.nullEntityNumber, StoreMismatch.rowEntity(table: "ZNOTE", primaryKey: 1, entityNumber: nil)),
              (.otherEntityNumber, .rowEntity(table: "ZNOTE", primaryKey: 1, entityNumber: 2)),
              (.textInOptimisticLock, .unreadableValue(table: "ZNOTE", column: "Z_OPT", primaryKey: 1, found: "\"x\"")),
          ])
    func rowMismatch(damage: StoreDamage, mismatch: StoreMismatch) throws {
        let folder = try TemporaryFolder()
        let (url, model) = try Self.damagedStore(damage, in: folder)
        let store = try PersistentStore.open(at: url, model: model)
        let error = try #require(throws: StoreError.self) { try Self.notes(in: ManagedObjectContext(store: store)) }
        #expect(error.mismatch == mismatch)
        #expect(error.description.hasPrefix("\(url.path): the store does not match its model: row 1 of ZNOTE")
            || error.description.hasPrefix("\(url.path): the store does not match its model: ZNOTE.Z_OPT of row 1"))

        let context = ManagedObjectContext(store: store)
        let lookup = try #require(throws: StoreError.self) {
            try context.existingObject(with: ObjectID(entityName: "Note", primaryKey: 1))
        }
        #expect(lookup.mismatch == mismatch)
        #expect(try context.existingObject(with: ObjectID(entityName: "Note", primaryKey: 2))?.value(forKey: "title") == .string("second"))
        #expect(try context.existingObject(with: ObjectID(entityName: "Note", primaryKey: 3)) == nil)
        let batched = try context.fetchBatched(FetchRequest(entityName: "Note"))
        #expect(batched.count == 2)
        _ = Array(batched)
        #expect((batched.failure as? StoreError)?.mismatch == mismatch)
    }

    @Test("a counter at Int64.max (Z_MAX, Z_OPT) fails the save with nothing written; no overflow",
          arguments: [
              (StoreDamage.largestPrimaryKey, StoreMismatch.exhaustedCounter(table: "Z_PRIMARYKEY", column: "Z_MAX")),
              (.largestOptimisticLock, .exhaustedCounter(table: "ZNOTE", column: "Z_OPT")),
          ])
    func exhaustedCounter(damage: StoreDamage, mismatch: StoreMismatch) throws {
        let folder = try TemporaryFolder()
        let (url, model) = try Self.damagedStore(damage, in: folder)
        let store = try PersistentStore.open(at: url, model: model)
        let before = try StoreDump.contents(of: store)
        let context = ManagedObjectContext(store: store)
        if damage == .largestPrimaryKey {
            try context.insertObject(entityName: "Note").setValue(.string("third"), forKey: "title")
        } else {
            let first = try #require(try Self.notes(in: context).first)
            first.setValue(.string("renamed"), forKey: "title")
        }
        let error = try #require(throws: ContextError.self) { try context.save(validating: false) }
        guard case .saveFailed(let cause) = error else {
            Issue.record("expected a failed save, got \(error)")
            return
        }
        #expect((cause as? StoreError)?.mismatch == mismatch)
        #expect(try StoreDump.contents(of: store) == before)
    }

    @Test("a number a decimal cannot hold (SQLite's infinity, stored for 9e999) is an error, not a trap")
    func infiniteDecimal() throws {
        let error = try #require(throws: ValueDecodingError.self) {
            try StoreValueCoding.attributeValue(Double.infinity.databaseValue, type: .decimal)
        }
        #expect(error.found == "a number out of a decimal's range" && error.type == .decimal)
        #expect(try StoreValueCoding.attributeValue(2.5.databaseValue, type: .decimal) == .decimal(2.5))
    }
}
