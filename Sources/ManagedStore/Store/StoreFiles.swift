import Foundation

/// The files that make up one SQLite store: the main file and its `-wal` and `-shm` companions.
public struct StoreFiles: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    public var all: [URL] {
        [url, URL(fileURLWithPath: url.path + "-wal"), URL(fileURLWithPath: url.path + "-shm")]
    }

    /// The files of the set that exist now.
    public var existing: [URL] {
        all.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Removes every file of the set; missing ones are fine.
    public func remove() {
        for file in all { try? FileManager.default.removeItem(at: file) }
    }
}
