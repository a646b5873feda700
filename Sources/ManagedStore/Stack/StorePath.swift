import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a store path names on disk, checked before SQLite sees it (SQLite calls a folder a
/// "disk I/O error"), and the real file behind symbolic links.
public enum StorePath {
    /// The real file of a store: links resolved, for the file itself or, when it does not exist
    /// yet, for its folder.
    public static func real(_ url: URL) -> URL {
        if let resolved = realpath(url.path, nil) {
            defer { free(resolved) }
            return URL(fileURLWithPath: String(cString: resolved))
        }
        let folder = url.deletingLastPathComponent()
        guard let resolved = realpath(folder.path, nil) else { return url }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved)).appendingPathComponent(url.lastPathComponent)
    }

    /// Whether a store file is there; throws when something else is (a folder, a device).
    public static func check(_ url: URL) throws -> Bool {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return false }
            throw StoreError(path: url.path, .cannotRead(.lastSystemError))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return true
        case S_IFDIR: throw StoreError(path: url.path, .isFolder)
        default: throw StoreError(path: url.path, .notARegularFile)
        }
    }

    /// Whether the store and its folder can both be written (a store in WAL mode needs its folder
    /// for the `-wal`); when not, the store can still be opened read-only.
    public static func isWritable(_ url: URL) -> Bool {
        access(url.path, W_OK) == 0 && access(url.deletingLastPathComponent().path, W_OK) == 0
    }

    /// Refuses, plainly, to migrate a store that cannot be written or whose folder cannot (the
    /// working copy, backup and lock go beside it).
    public static func checkWritable(_ url: URL) throws {
        if access(url.path, W_OK) != 0 {
            throw MigrationError.file(path: url.path, problem: .readOnlyStore)
        }
        let folder = url.deletingLastPathComponent()
        if access(folder.path, W_OK) != 0 {
            throw MigrationError.file(path: url.path, problem: .readOnlyFolder(folder: folder.path))
        }
    }
}
