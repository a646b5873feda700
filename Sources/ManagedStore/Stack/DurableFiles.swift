import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File operations that survive a crash or power loss: data synced to disk before a rename, and
/// the rename itself made durable by syncing the folder.
enum DurableFiles {
    #if canImport(Glibc)
    private static let systemRename = Glibc.rename
    #else
    private static let systemRename = Darwin.rename
    #endif

    static func sync(_ url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.synchronize()
    }

    /// Atomically replaces `destination` with `source` (same folder).
    static func rename(_ source: URL, to destination: URL) throws {
        guard systemRename(source.path, destination.path) == 0 else {
            throw MigrationError("cannot rename \(source.lastPathComponent) to \(destination.lastPathComponent): \(String(cString: strerror(errno)))")
        }
        let folder = open(destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
