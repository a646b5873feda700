import Foundation
import Synchronization
import GRDB
import ManagedStore
import UnCloudNotesKit

/// The same migrations written by hand in SQL, in place and in one transaction, as a person who
/// knows the data would write each one (a chain directly, not step after step): what the engine is
/// measured against. Run in a child process, timed from opening the store to closing it (the
/// commit's syncs and the WAL checkpoint included).
enum Baseline {
    static func migrate(storeAt url: URL, from source: Int, to destination: Int) throws {
        let model = try UnCloudNotesModel.load()
        let uuid = try StoreMetadata.read(storeAt: url).storeUUID
        try ChildProcess.printReport {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                db.add(function: ImageDimensions.function)
                try migrate(from: source, to: destination, in: db)
                // Version 4 declares a fetch index on the notes' dates (the list's order).
                if destination == 4 { try db.execute(sql: "CREATE INDEX Z_Note_byDateCreated ON ZNOTE (ZDATECREATED COLLATE BINARY DESC)") }
                try writeBookkeeping(for: model.versions[destination - 1], storeUUID: uuid, in: db)
            }
            try queue.close()
        }
    }

    /// v2 keeps one image in the note; v3 moves images to attachments; v4 gives them a caption and
    /// a size and makes them image attachments (entity numbers: v3 Note 2, v4 Note 3, ImageAttachment 2).
    private static func migrate(from source: Int, to destination: Int, in db: Database) throws {
        let caption = "substr(ZBODY, 1, \(AttachmentToImageAttachmentMigrationPolicyV3toV4.captionLength))"
        switch (source, destination) {
        case (1, 2):
            try db.execute(sql: "ALTER TABLE ZNOTE ADD COLUMN ZIMAGE BLOB")
        case (1, _):
            try createAttachments(at: destination, in: db)
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = \(destination - 1)")
        case (2, _):
            try createAttachments(at: destination, in: db)
            let sized = destination == 4
            try db.execute(sql: """
                INSERT INTO ZATTACHMENT (Z_PK, Z_ENT, Z_OPT, ZNOTE, ZDATECREATED, ZIMAGE\(sized ? ", ZCAPTION, ZWIDTH, ZHEIGHT" : ""))
                SELECT ROW_NUMBER() OVER (ORDER BY Z_PK), \(destination - 2), 1, Z_PK, ZDATECREATED, ZIMAGE\
                \(sized ? ", \(caption), image_dimension(ZIMAGE, 0), image_dimension(ZIMAGE, 1)" : "")
                FROM ZNOTE WHERE ZIMAGE IS NOT NULL
                """)
            try db.execute(sql: "ALTER TABLE ZNOTE DROP COLUMN ZIMAGE")
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = \(destination - 1)")
        default:
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZCAPTION VARCHAR")
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZWIDTH FLOAT")
            try db.execute(sql: "ALTER TABLE ZATTACHMENT ADD COLUMN ZHEIGHT FLOAT")
            try db.execute(sql: """
                UPDATE ZATTACHMENT SET Z_ENT = 2, ZCAPTION = (SELECT \(caption) FROM ZNOTE WHERE ZNOTE.Z_PK = ZATTACHMENT.ZNOTE),
                    ZWIDTH = image_dimension(ZIMAGE, 0), ZHEIGHT = image_dimension(ZIMAGE, 1)
                """)
            try db.execute(sql: "CREATE INDEX ZATTACHMENT_Z_ENT_INDEX ON ZATTACHMENT (Z_ENT)")
            try db.execute(sql: "UPDATE ZNOTE SET Z_ENT = 3")
        }
    }

    /// The attachments table as version 3 or 4 has it, empty, with its indexes.
    private static func createAttachments(at version: Int, in db: Database) throws {
        try db.execute(sql: "CREATE TABLE ZATTACHMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNOTE INTEGER, "
            + "ZDATECREATED TIMESTAMP, ZIMAGE BLOB\(version == 4 ? ", ZCAPTION VARCHAR, ZWIDTH FLOAT, ZHEIGHT FLOAT" : "") )")
        try db.execute(sql: "CREATE INDEX ZATTACHMENT_ZNOTE_INDEX ON ZATTACHMENT (ZNOTE)")
        if version == 4 { try db.execute(sql: "CREATE INDEX ZATTACHMENT_Z_ENT_INDEX ON ZATTACHMENT (Z_ENT)") }
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

/// `image_dimension(blob, 0 or 1)`: an image's width or height from the app's own image code, as a
/// person writing the migration by hand would register it. The last image's size is kept, so the
/// width and height of one row cost one read of the image.
final class ImageDimensions: Sendable {
    static let function = DatabaseFunction("image_dimension", argumentCount: 2, pure: true) { values in
        guard let data = Data.fromDatabaseValue(values[0]), let axis = Int.fromDatabaseValue(values[1]) else { return 0.0 }
        return Double(last.size(of: data, axis: axis))
    }

    private static let last = ImageDimensions()
    /// The last image read and its size.
    private let cache = Mutex<(data: Data?, width: Int, height: Int)>((nil, 0, 0))

    private func size(of image: Data, axis: Int) -> Int {
        cache.withLock { last in
            if last.data != image {
                // As the app's policy does: an image whose header cannot be read gets 0 x 0.
                let size = (try? NoteImage(storedData: image).pixelSize()) ?? (width: 0, height: 0)
                last = (image, size.width, size.height)
            }
            return axis == 0 ? last.width : last.height
        }
    }
}
