import Foundation

/// A store's file and its `-wal` as the file system describes them now (device, inode, size,
/// modification and change times): while two stamps are equal, no one replaced the store or
/// committed to it in between, so what was read from it then (its metadata, the migration
/// planned from them) still holds. Taking one reads no byte of the store.
///
/// Should a write ever leave the stamp equal (size and times the same within the file system's
/// clock), what was read is out of date, and the store's own checks still refuse it: a plan whose
/// source version no longer matches fails to open the store, and an open checks every table.
struct StoreFileStamp: Equatable, Sendable {
    private let file: [Int64]
    private let wal: [Int64]?

    /// The stamp of the store at `url` now; nil when its file cannot be examined.
    init?(of url: URL) {
        guard let file = Self.fields(url.path) else { return nil }
        self.file = file
        self.wal = Self.fields(url.path + "-wal")
    }

    private static func fields(_ path: String) -> [Int64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Glibc)
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #else
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #endif
        return [Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size),
                Int64(modified.tv_sec), Int64(modified.tv_nsec), Int64(changed.tv_sec), Int64(changed.tv_nsec)]
    }
}

/// A store's metadata as read at one moment, with the store's stamp from just before: what a
/// launch decided from, reused (by the re-check after the lock, by the open that follows) while
/// the stamp holds, so a launch reads the metadata once.
package struct StoreMetadataReading: Sendable {
    /// The metadata as read.
    package let metadata: StoreMetadata
    let stamp: StoreFileStamp?

    /// Reads the metadata of the store at `url`, its stamp taken first: a write during the read
    /// leaves a stamp that no longer matches the file.
    package static func read(storeAt url: URL) throws -> StoreMetadataReading {
        let stamp = StoreFileStamp(of: url)
        return StoreMetadataReading(metadata: try StoreMetadata.read(storeAt: url), stamp: stamp)
    }

    /// Whether the store at `url` is as it was when this was read.
    func holds(forStoreAt url: URL) -> Bool {
        stamp != nil && StoreFileStamp(of: url) == stamp
    }
}
