import Foundation
import GRDB
import ManagedStore
import UnCloudNotesKit

/// The same migrations written by hand in SQL, in place and in one transaction, as a person who
/// knows the data would: what the engine is measured against. Run in a child process, timed from
/// opening the store to closing it (the commit's syncs and the WAL checkpoint included).
enum Baseline {
    static func migrate(storeAt url: URL, from source: Int, to destination: Int) throws {
        let model = try UnCloudNotesModel.load()
        let uuid = try StoreMetadata.read(storeAt: url).storeUUID
        try ChildProcess.printReport {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                for from in source..<destination { try step(from: from, in: db) }
                try writeBookkeeping(for: model.versions[destination - 1], storeUUID: uuid, in: db)
            }
            try queue.close()
        }
    }

    private static func step(from: Int, in db: Database) throws {
        switch from {
        case 1:
            try db.execute(sql: "ALTER TABLE ZNOTE ADD COLUMN ZIMAGE BLOB")
        case 2:
            try db.execute(sql: "CREATE TABLE ZATTACHMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNOTE INTEGER, ZDATECREATED TIMESTAMP, ZIMAGE BLOB )")
            try db.execute(sql: """
                INSERT INTO ZATTACHMENT (Z_PK, Z_ENT, Z_OPT, ZNOTE, ZDATECREATED, ZIMAGE)
                SELECT ROW_NUMBER() OVER (ORDER BY Z_PK), 1, 1, Z_PK, ZDATECREATED, ZIMAGE FROM ZNOTE WHERE ZIMAGE IS NOT NULL
                """)
            try db.execute(sql: "CREATE INDEX ZATTACHMENT_ZNOTE_INDEX ON ZATTACHMENT (ZNOTE)")
            try db.execute(sql: "ALTER TABLE ZNOTE DROP COLUMN ZIMAGE")
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = 2")
        default:
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZCAPTION VARCHAR")
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZWIDTH FLOAT")
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZHEIGHT FLOAT")
            try db.execute(sql: "UPDATE ZATTACHMENT SET Z_ENT = 2, ZCAPTION = (SELECT substr(ZBODY, 1, 80) FROM ZNOTE WHERE ZNOTE.Z_PK = ZATTACHMENT.ZNOTE)")
            let update = try db.makeStatement(sql: "UPDATE ZATTACHMENT SET ZWIDTH = ?, ZHEIGHT = ? WHERE Z_PK = ?")
            let rows = try Row.fetchCursor(db, sql: "SELECT Z_PK, ZIMAGE FROM ZATTACHMENT")
            while let row = try rows.next() {
                let size = (try? NoteImage(storedData: row["ZIMAGE"]).pixelSize()) ?? (width: 0, height: 0)
                try update.execute(arguments: [Double(size.width), Double(size.height), row["Z_PK"] as Int64])
            }
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = 3")
            try db.execute(sql: "CREATE INDEX ZATTACHMENT_Z_ENT_INDEX ON ZATTACHMENT (Z_ENT)")
        }
    }

    /// Primary-key counters and metadata, once for the version the transaction ends at.
    private static func writeBookkeeping(for destination: ManagedObjectModel, storeUUID uuid: String, in db: Database) throws {
        let schema = try StoreSchema(model: destination)
        var maxima = try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").reduce(into: [String: Int64]()) { $0[$1["Z_NAME"]] = $1["Z_MAX"] }
        if try db.tableExists("ZATTACHMENT") {
            maxima["Attachment"] = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ZATTACHMENT") ?? 0
        }
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY")
        for entity in schema.entities {
            let maximum = entity.rootName == entity.name ? maxima[entity.name] ?? 0 : 0
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)", arguments: [entity.number, entity.name, entity.superNumber, maximum])
        }
        try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try StoreMetadata(model: destination, storeUUID: uuid).plistData()])
    }
}
