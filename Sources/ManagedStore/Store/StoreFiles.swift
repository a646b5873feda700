import Foundation
package import GRDB

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

    /// A read-only connection that leaves the file set as it found it. With no `-wal` file beside
    /// the store the main file is complete, so it is opened as immutable and SQLite creates no
    /// `-wal`/`-shm` files (a read-only connection could not remove them afterwards).
    /// The default configuration waits out another process's write (as every store connection
    /// does) instead of failing at once with "database is locked".
    package func readOnlyQueue(configuration: Configuration = StoreFiles.waitingConfiguration) throws -> DatabaseQueue {
        var configuration = configuration
        configuration.readonly = true
        // An immutable connection is only an optimisation for files nobody can write: when it
        // cannot be opened or read, the plain read-only connection below is used and reports errors.
        if let uri = readOnlyURI,
           let immutable = try? DatabaseQueue(path: uri, configuration: configuration),
           (try? immutable.read({ try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") })) != nil {
            return immutable
        }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// A connection configuration with the stores' busy timeout.
    package static var waitingConfiguration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(StoreOptions.defaultBusyTimeout)
        return configuration
    }

    /// The URI opening the store immutable, read-only; nil while a `-wal` file exists.
    public var readOnlyURI: String? {
        FileManager.default.fileExists(atPath: url.path + "-wal") ? nil : url.absoluteString + "?mode=ro&immutable=1"
    }

    /// Removes every file of the set; missing ones are fine (hence no error: each removal is
    /// best effort, for cleaning up after a failure that is itself reported).
    public func remove() {
        for file in all { try? FileManager.default.removeItem(at: file) }
    }
}
