import Foundation

/// A fresh folder under the system's temporary directory, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("uncloudnotes-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes text to a path relative to the folder, creating folders on the way.
    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Writes a generated image (see `TestImages.encoded`) into the folder, for tests that attach one by path.
    public func writeImage(named name: String, width: Int, height: Int, format: String = "png") throws -> URL {
        let file = url.appendingPathComponent(name)
        try TestImages.encoded(width: width, height: height, format: format).write(to: file)
        return file
    }

    /// Copies a file or folder into this folder, keeping its name.
    public func copy(_ source: URL) throws -> URL {
        let destination = url.appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: destination)
        return destination
    }

    /// Copies a store with whichever of its `-wal` and `-shm` companions exist (a store's data may be
    /// in its `-wal`), under `name` or its own name. The fixtures are never opened in place.
    public func copyStore(_ source: URL, as name: String? = nil) throws -> URL {
        let destination = url.appendingPathComponent(name ?? source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where suffix.isEmpty || FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: destination.path + suffix)
        }
        return destination
    }
}
