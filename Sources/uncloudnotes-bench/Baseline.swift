import Foundation
import GRDB
import ManagedStore
import UnCloudNotesKit

/// The same migrations written by hand in SQL, in place and in one transaction, as a careful person
/// who knows the data would write each one (a chain directly, not step after step): what the
/// engine is measured against. Run in a child process, timed from opening the store to closing it
/// (the commit's syncs and the WAL checkpoint included).
enum Baseline {
    static func migrate(storeAt url: URL, from source: Int, to destination: Int) throws {
        let model = try UnCloudNotesModel.load()
        let uuid = try StoreMetadata.read(storeAt: url).storeUUID
        try ChildProcess.printReport {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                // Debian's SQLite zeroes every page it frees (secure_delete = ON); the images a
                // migration frees are the ones it just copied into attachments, so zeroing them
                // protects nothing and would write each image twice more (FAST clears freed
                // content only where that costs no extra page write).
                try db.execute(sql: "PRAGMA secure_delete = FAST")
                BaselineFunctions.register(in: db)
                // v5 adds to v4's tables only: a chain to v5 is the chain to v4, then v4 -> v5, in
                // the same transaction.
                if source < 4 { try migrate(from: source, to: min(destination, 4), in: db) }
                if destination == 5 { try addVersion5(in: db) }
                try writeBookkeeping(for: model.versions[destination - 1], storeUUID: uuid, in: db)
            }
            try queue.close()
        }
    }

    /// v2 keeps one image in the note; v3 moves images to attachments; v4 gives them a caption and
    /// a size and makes them image attachments (entity numbers: v3 Note 2, v4 Note 3, ImageAttachment 2).
    /// Indexes are built once the rows are in. The notes' images are cleared together with their
    /// new entity number, so the column drop that follows rewrites rows without their images
    /// (dropped first, SQLite rewrote every row around its image, then the update again).
    private static func migrate(from source: Int, to destination: Int, in db: Database) throws {
        switch (source, destination) {
        case (1, 2):
            try db.execute(sql: "ALTER TABLE ZNOTE ADD COLUMN ZIMAGE BLOB")
        case (1, _):
            try createAttachments(at: destination, in: db)
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = \(destination - 1)")
        case (2, _):
            try createAttachments(at: destination, in: db)
            let sized = destination == 4
            // Keys are left to SQLite: the table is empty, so the attachments are numbered 1, 2, ...
            // in the notes' order without a window function (which copies every row, images
            // included, into a temporary table first).
            try db.execute(sql: """
                INSERT INTO ZATTACHMENT (Z_ENT, Z_OPT, ZNOTE, ZDATECREATED, ZIMAGE\(sized ? ", ZCAPTION, ZWIDTH, ZHEIGHT" : ""))
                SELECT \(destination - 2), 1, Z_PK, ZDATECREATED, ZIMAGE\
                \(sized ? ", caption(ZBODY), image_width(ZIMAGE), image_height(ZIMAGE)" : "")
                FROM ZNOTE WHERE ZIMAGE IS NOT NULL ORDER BY Z_PK
                """)
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = \(destination - 1), ZIMAGE = NULL")
            try db.execute(sql: "ALTER TABLE ZNOTE DROP COLUMN ZIMAGE")
        default:
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZCAPTION VARCHAR")
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZWIDTH FLOAT")
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZHEIGHT FLOAT")
            try db.execute(sql: """
                UPDATE ZATTACHMENT SET Z_ENT = 2, ZCAPTION = caption((SELECT ZBODY FROM ZNOTE WHERE ZNOTE.Z_PK = ZATTACHMENT.ZNOTE)),
                    ZWIDTH = image_width(ZIMAGE), ZHEIGHT = image_height(ZIMAGE)
                """)
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = 3")
        }
        if source < 3, destination >= 3 { try db.execute(sql: "CREATE INDEX ZATTACHMENT_ZNOTE_INDEX ON ZATTACHMENT (ZNOTE)") }
        if destination == 4 {
            try db.execute(sql: "CREATE INDEX ZATTACHMENT_Z_ENT_INDEX ON ZATTACHMENT (Z_ENT)")
            // Version 4 declares a fetch index on the notes' dates (the list's order).
            try db.execute(sql: "CREATE INDEX Z_Note_byDateCreated ON ZNOTE (ZDATECREATED COLLATE BINARY DESC)")
        }
    }

    /// v4 -> v5 in place: notes get a modified date (their creation date), a pin (off) and an
    /// identifier, attachments an identifier (`new_uuid()`, a UUID's 16 bytes, as the app's
    /// policy gives them); the tags' table and the notes' join table start empty. Entity numbers
    /// stay (Tag is 4, after every v4 entity). Indexes come after the rows.
    private static func addVersion5(in db: Database) throws {
        try db.execute(sql: "ALTER TABLE ZNOTE ADD COLUMN ZPINNED INTEGER")
        try db.execute(sql: "ALTER TABLE ZNOTE ADD COLUMN ZDATEMODIFIED TIMESTAMP")
        try db.execute(sql: "ALTER TABLE ZNOTE ADD COLUMN ZIDENTIFIER BLOB")
        try db.execute(sql: "UPDATE ZNOTE SET ZPINNED = 0, ZDATEMODIFIED = ZDATECREATED, ZIDENTIFIER = new_uuid()")
        try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZIDENTIFIER BLOB")
        try db.execute(sql: "UPDATE ZATTACHMENT SET ZIDENTIFIER = new_uuid()")
        try db.execute(sql: "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )")
        try db.execute(sql: "CREATE TABLE Z_3TAGS ( Z_3NOTES INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_3NOTES, Z_4TAGS) )")
        try db.execute(sql: "CREATE INDEX Z_3TAGS_Z_4TAGS_INDEX ON Z_3TAGS (Z_4TAGS, Z_3NOTES)")
        try db.execute(sql: "CREATE UNIQUE INDEX Z_Tag_UNIQUE_name ON ZTAG (ZNAME COLLATE BINARY ASC)")
        try db.execute(sql: "CREATE UNIQUE INDEX Z_Note_UNIQUE_identifier ON ZNOTE (ZIDENTIFIER COLLATE BINARY ASC)")
        try db.execute(sql: "CREATE UNIQUE INDEX Z_Attachment_UNIQUE_identifier ON ZATTACHMENT (ZIDENTIFIER COLLATE BINARY ASC)")
        // The list's orders: pinned notes first, by creation or modification date.
        try db.execute(sql: "CREATE INDEX Z_Note_byPinnedThenDateCreated ON ZNOTE (ZPINNED COLLATE BINARY DESC, ZDATECREATED COLLATE BINARY DESC)")
        try db.execute(sql: "CREATE INDEX Z_Note_byPinnedThenDateModified ON ZNOTE (ZPINNED COLLATE BINARY DESC, ZDATEMODIFIED COLLATE BINARY DESC)")
    }

    /// The attachments table as version 3 or 4 has it, empty; its indexes come after its rows.
    private static func createAttachments(at version: Int, in db: Database) throws {
        try db.execute(sql: "CREATE TABLE ZATTACHMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNOTE INTEGER, "
            + "ZDATECREATED TIMESTAMP, ZIMAGE BLOB\(version == 4 ? ", ZCAPTION VARCHAR, ZWIDTH FLOAT, ZHEIGHT FLOAT" : "") )")
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
