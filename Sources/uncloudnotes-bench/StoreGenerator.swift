import CGdkPixbuf
import Foundation
import GRDB
import ManagedStore
import UnCloudNotesKit

/// Makes the benchmark's stores: v1 stores of N notes with realistic titles and bodies (some
/// non-ASCII), written with plain SQL in one transaction, and real images (small, or about 50 KB)
/// for 10% of the notes once a store is at v2. Generation is not what is measured.
enum StoreGenerator {
    static let words = ["meeting", "groceries", "idea", "garden", "travel", "book", "call", "recipe", "project", "weekend",
                        "café", "naïve", "über", "笔记", "会议", "想法", "заметка", "идея", "🎉", "☕️"]

    static func makeV1Store(at url: URL, notes count: Int, model: VersionedModel) throws {
        let store = try PersistentStore.create(at: url, model: model.versions[0], options: StoreOptions(journalMode: .wal))
        var random = SeededRandom(seed: UInt64(count))
        try store.database.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZDISPLAYINDEX, ZDATECREATED, ZBODY, ZTITLE) VALUES (?, 1, 1, ?, ?, ?, ?)")
            for index in 1...count {
                let title = (0..<(2 + random.next(4))).map { _ in words[random.next(words.count)] }.joined(separator: " ").capitalized
                let body = (0..<(10 + random.next(120))).map { _ in words[random.next(words.count)] }.joined(separator: " ")
                try statement.execute(arguments: [index, index, 700_000_000.0 + Double(index) * 60, body, title])
            }
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Note'", arguments: [count])
        }
        try store.close()
    }

    /// Gives every tenth note (by primary key) one of a few real images of the given kind.
    static func addImages(toV2StoreAt url: URL, kind: ImageKind) throws {
        let images = kind.samples
        let queue = try DatabaseQueue(path: url.path)
        // Every write is committed before the close; closing cannot lose any.
        defer { try? queue.close() }
        try queue.write { db in
            let statement = try db.makeStatement(sql: "UPDATE ZNOTE SET ZIMAGE = ? WHERE Z_PK = ?")
            let maximum = try Int.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ZNOTE") ?? 0
            for key in stride(from: 10, through: maximum, by: 10) {
                try statement.execute(arguments: [images[(key / 10) % images.count], key])
            }
        }
        _ = try queue.writeWithoutTransaction { try Row.fetchAll($0, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    /// Noise compresses badly, so a small picture makes a file of predictable size.
    static func encoded(seed: UInt64, format: String, width: Int, height: Int) -> Data {
        // The benchmark's own small pictures: gdk-pixbuf fails them only out of memory, where
        // no measurement would mean anything; a trap says so.
        let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, Int32(width), Int32(height))!
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        var random = SeededRandom(seed: seed)
        for y in 0..<height {
            for x in 0..<width * 3 { pixels[y * stride + x] = UInt8(random.next(256)) }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, format, nil, nil, &error) != 0, let buffer else { return Data() }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }
}

/// The images the notes get: small ones (a few hundred bytes to a few KB, where per-image work
/// dominates) or about 50 KB (where copying the bytes dominates).
enum ImageKind: String, Codable, CaseIterable {
    case small, big

    var samples: [Data] {
        let (png, jpeg) = self == .small ? ((16, 16), (24, 24)) : ((128, 128), (260, 200))
        return (1...4).map { seed in
            seed % 2 == 1 ? StoreGenerator.encoded(seed: UInt64(seed), format: "png", width: png.0, height: png.1)
                          : StoreGenerator.encoded(seed: UInt64(seed), format: "jpeg", width: jpeg.0, height: jpeg.1)
        }
    }

    /// `--images` of `run` and `migrations`: kinds, comma-separated; nil when one is not a kind.
    static func list(_ text: String) -> [ImageKind]? {
        let kinds = text.split(separator: ",").map { ImageKind(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        return kinds.contains(nil) ? nil : kinds.compactMap { $0 }
    }
}

/// A small deterministic generator, so every run makes the same stores.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
