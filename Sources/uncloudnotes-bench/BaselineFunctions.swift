import Foundation
import GRDB
import GRDBSQLite
import UnCloudNotesKit

/// The SQL functions a careful person writing the migration by hand registers, computing what the
/// app's v3 -> v4 policy computes: `image_width(blob)` and `image_height(blob)`, the size read from
/// the image's header (0 when unreadable), and `caption(text)`, the body's first 80 grapheme
/// clusters as `String.prefix` counts them ("" without a body); and what v4 -> v5's policy
/// computes, `new_uuid()`. Registered directly with SQLite so
/// an image is read where SQLite holds it, not copied (50 KB images, two calls a row).
enum BaselineFunctions {
    static func register(in db: Database) {
        let deterministic = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        sqlite3_create_function_v2(db.sqliteConnection, "image_width", 1, deterministic, nil, imageWidth, nil, nil, nil)
        sqlite3_create_function_v2(db.sqliteConnection, "image_height", 1, deterministic, nil, imageHeight, nil, nil, nil)
        sqlite3_create_function_v2(db.sqliteConnection, "caption", 1, deterministic, nil, caption, nil, nil, nil)
        // A new value each call: not deterministic, so SQLite never reuses one.
        sqlite3_create_function_v2(db.sqliteConnection, "new_uuid", 0, SQLITE_UTF8, nil, newUUID, nil, nil, nil)
    }

    /// A new UUID's 16 bytes, as Core Data stores a UUID attribute (v5's identifiers).
    private static let newUUID: Function = { context, _, _ in
        var uuid = UUID().uuid
        withUnsafeBytes(of: &uuid) { bytes in
            sqlite3_result_blob(context, bytes.baseAddress, 16, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    private typealias Function = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    private static let imageWidth: Function = { context, _, arguments in
        sqlite3_result_double(context, Double(pixelSize(arguments?[0]).width))
    }

    private static let imageHeight: Function = { context, _, arguments in
        sqlite3_result_double(context, Double(pixelSize(arguments?[0]).height))
    }

    private static let caption: Function = { context, _, arguments in
        var caption = ""
        if let value = arguments?[0], sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) {
            let body = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
            caption = String(body.prefix(AttachmentToImageAttachmentMigrationPolicyV3toV4.captionLength))
        }
        let bytes = Array(caption.utf8)
        // SQLITE_TRANSIENT: SQLite copies the bytes before the array goes.
        sqlite3_result_text(context, bytes, Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    /// The size from the header, as the app's policy reads it: an image whose size cannot be read
    /// is 0 x 0, and so is anything that is not a blob.
    private static func pixelSize(_ value: OpaquePointer?) -> (width: Int, height: Int) {
        guard let value, sqlite3_value_type(value) == SQLITE_BLOB, let bytes = sqlite3_value_blob(value) else { return (0, 0) }
        let image = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: Int(sqlite3_value_bytes(value)), deallocator: .none)
        // As the app's policy does: an image whose size cannot be read is stored as 0 x 0.
        return (try? NoteImage(storedData: image).pixelSize()) ?? (0, 0)
    }
}
