import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

@Suite("Core Data's SQLite layout")
struct StoreLayoutTests {
    private func schemaSQL(of store: PersistentStore) throws -> [String: String] {
        try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL").reduce(into: [:]) {
                $0[$1["name"] as String] = $1["sql"] as String
            }
        }
    }

    @Test("entities are numbered roots-alphabetically, each followed by its sub-entities")
    func entityNumbering() throws {
        let schema = try StoreSchema(model: LibraryModel.load())
        #expect(schema.entities.map(\.name) == ["Item", "Book", "Tool", "Owner", "Sample", "Shelf", "Tag"])
        #expect(schema.entity(named: "Tool")?.superNumber == 1)
        #expect(schema.entity(named: "Tool")?.tableName == "ZITEM")
        #expect(schema.entity(named: "Item")?.kindNumbers == [1, 2, 3])
    }

    @Test("tables, columns, join tables and indexes follow the DDL rules")
    func createdSchema() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let sql = try schemaSQL(of: store)
        #expect(sql["ZITEM"] == "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSHELF INTEGER, Z_FOK_SHELF INTEGER, ZTITLE VARCHAR, ZPAGES INTEGER, ZWEIGHT INTEGER, ZWEIGHT1 FLOAT )")
        #expect(sql["ZSAMPLE"] == "CREATE TABLE ZSAMPLE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFLAG INTEGER, ZI16 INTEGER, ZI32 INTEGER, ZI64 INTEGER, ZDATE TIMESTAMP, ZDECIMAL DECIMAL, ZDOUBLE FLOAT, ZFLOAT FLOAT, ZSTRING VARCHAR, ZURI VARCHAR, ZBINARY BLOB, ZBLOB BLOB, ZUUID BLOB )")
        #expect(sql["ZSHELF"] == "CREATE TABLE ZSHELF ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, ZNAME VARCHAR )")
        #expect(sql["ZTAG"] == "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFEATURED INTEGER, Z1_FEATURED INTEGER, ZHOLDER INTEGER, ZNAME VARCHAR )")
        #expect(sql["ZOWNER"] == "CREATE TABLE ZOWNER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBADGE INTEGER, ZNAME VARCHAR )")
        #expect(sql["Z_1TAGS"] == "CREATE TABLE Z_1TAGS ( Z_1ITEMS INTEGER, Z_7TAGS INTEGER, PRIMARY KEY (Z_1ITEMS, Z_7TAGS) )")
        #expect(sql["Z_PRIMARYKEY"] == "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        #expect(sql["Z_METADATA"] == "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        #expect(sql["Z_MODELCACHE"] == "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        #expect(sql["ZITEM_Z_ENT_INDEX"] == "CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)")
        #expect(sql["ZITEM_ZSHELF_INDEX"] == "CREATE INDEX ZITEM_ZSHELF_INDEX ON ZITEM (ZSHELF)")
        #expect(sql["ZITEM_ZTITLE_INDEX"] == "CREATE INDEX ZITEM_ZTITLE_INDEX ON ZITEM (ZTITLE)")
        #expect(sql["ZSHELF_ZOWNER_INDEX"] == "CREATE INDEX ZSHELF_ZOWNER_INDEX ON ZSHELF (ZOWNER)")
        #expect(sql["Z_1TAGS_Z_7TAGS_INDEX"] == "CREATE INDEX Z_1TAGS_Z_7TAGS_INDEX ON Z_1TAGS (Z_7TAGS, Z_1ITEMS)")
        #expect(sql["Z_Tag_UNIQUE_name"] == "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)")
        #expect(sql["Z_Owner_byName"] == "CREATE INDEX Z_Owner_byName ON ZOWNER (ZNAME COLLATE BINARY ASC)")
        #expect(sql["ZTAG_ZFEATURED_INDEX"] == "CREATE INDEX ZTAG_ZFEATURED_INDEX ON ZTAG (ZFEATURED)")
        #expect(sql.keys.filter { !$0.hasPrefix("sqlite_") }.count == 19)
    }

    @Test("Z_PRIMARYKEY has a row per entity with its parent's number; pragmas as Core Data sets them")
    func bookkeeping() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        let rows = try store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                .map { [$0[0] as Int, $0[1] as String, $0[2] as Int, $0[3] as Int] as [AnyHashable] }
        }
        #expect(rows == [[1, "Item", 0, 0], [2, "Book", 1, 0], [3, "Tool", 1, 0], [4, "Owner", 0, 0],
                         [5, "Sample", 0, 0], [6, "Shelf", 0, 0], [7, "Tag", 0, 0]])
        let (journal, vacuum) = try store.database.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA auto_vacuum"))
        }
        #expect(journal == "wal")
        #expect(vacuum == 2)
    }

    @Test("the journal mode is an option")
    func journalModeOption() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder, options: StoreOptions(journalMode: .delete))
        #expect(try store.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
    }

    @Test("the metadata holds Core Data's keys and is read back without opening for writing")
    func metadataRoundTrip() throws {
        let folder = try TemporaryFolder()
        let model = try LibraryModel.load()
        let store = try LibraryModel.createStore(in: folder)
        try store.close()
        let metadata = try StoreMetadata.read(storeAt: store.url)
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.versionHashes == model.entityVersionHashes)
        #expect(metadata.versionHashesVersion == 3)
        #expect(metadata.versionIdentifiers == [""])
        #expect(metadata.versionChecksum == model.versionChecksum)
        #expect(metadata.versionHashesDigest == model.versionHashesDigest)
        #expect(UUID(uuidString: metadata.storeUUID) != nil)
        #expect(metadata.isCompatible(with: model))
    }

    @Test("SQL debug logs every statement the engine runs")
    func sqlDebugLogging() throws {
        let folder = try TemporaryFolder()
        let lines = LogCollector()
        let store = try LibraryModel.createStore(in: folder, options: StoreOptions(sqlLogger: lines.logger))
        let context = ManagedObjectContext(store: store)
        let tag = try context.insertObject(entityName: "Tag")
        tag.setValue(.string("x"), forKey: "name")
        try context.save()
        #expect(lines.messages.contains { $0.hasPrefix("sql: CREATE TABLE ZITEM") })
        #expect(lines.messages.contains { $0.hasPrefix("sql: INSERT INTO ZTAG") })
    }
}
