import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder beside a store holding the values of attributes that allow external storage, one
/// file per value named by an uppercase UUID: `.<store name without extension>_SUPPORT/_EXTERNAL_DATA`,
/// where Core Data puts it. Files are 0600 and folders 0700, like the store.
///
/// The files the migrator makes beside a store (working copies, backups) are named by their whole
/// name (`.Notes.sqlite.v1-backup_SUPPORT`), so no two of them share a folder.
public struct ExternalDataFolder: Sendable, Equatable {
    /// The `_EXTERNAL_DATA` folder.
    public let url: URL

    public init(storeAt store: URL) {
        let name = store.lastPathComponent
        let isMigrationFile = Self.migrationFileSuffixes.contains { name.hasSuffix($0) }
        let base = isMigrationFile ? name : (name as NSString).deletingPathExtension
        url = store.deletingLastPathComponent().appendingPathComponent(".\(base)_SUPPORT")
            .appendingPathComponent("_EXTERNAL_DATA")
    }

    /// The endings of the names `MigrationFiles` gives the files it makes beside a store.
    static let migrationFileSuffixes = [".migrating", ".migrating-next", "-backup", "-backup.partial"]

    /// `.<name>_SUPPORT`, which holds `_EXTERNAL_DATA`.
    public var supportFolder: URL { url.deletingLastPathComponent() }

    public func file(named name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The content of one value's file.
    public func data(named name: String) throws(ExternalDataProblem) -> Data {
        let file = file(named: name)
        do {
            return try Data(contentsOf: file)
        } catch {
            guard FileManager.default.fileExists(atPath: file.path) else { throw .missingFile(path: file.path) }
            throw .unreadableFile(path: file.path, reason: "\(error.localizedDescription)")
        }
    }

    /// Writes a value to a new file, synced to disk with its folder entry before this returns (so
    /// a row committed after it never names a file that is not there), and returns its name.
    func write(_ value: Data) throws -> String {
        try createFolders()
        let name = UUID().uuidString
        let path = file(named: name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(.create, path) }
        defer { close(descriptor) }
        do {
            do {
                try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: value)
            } catch {
                throw StoreError(path: url.path, .externalDataFile(action: .write, file: path, FailureCause(error)))
            }
            guard fsync(descriptor) == 0 else { throw failure(.sync, path) }
        } catch {
            unlink(path)
            throw error
        }
        try syncFolder()
        return name
    }

    /// Removes values' files; a missing one is fine (another save may have removed it).
    func remove(_ names: some Sequence<String>) {
        for name in names { unlink(file(named: name).path) }
    }

    /// The names of the files in the folder: none when it does not exist, an error when it exists
    /// but cannot be listed (an empty answer would leave files out of a backup, or remove the
    /// store's files after a migration).
    public func fileNames() throws -> [String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        } catch {
            throw StoreError(path: url.path, .externalDataFile(action: .list, file: url.path, FailureCause(error)))
        }
    }

    /// Removes `.<name>_SUPPORT` and everything in it; a missing folder is fine. Only used to
    /// clean up this program's own folders (working copies, a failed run's backup), where a folder
    /// left behind is harmless, hence no error.
    func removeSupportFolder() {
        try? FileManager.default.removeItem(at: supportFolder)
    }

    /// Creates the folders that are missing, each made durable in its parent before files go in.
    func createFolders() throws {
        for folder in [supportFolder, url] where !FileManager.default.fileExists(atPath: folder.path) {
            guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST else { throw failure(.create, folder.path) }
            try DurableFiles.syncFolder(folder.deletingLastPathComponent())
        }
    }

    func syncFolder() throws {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(.openToSync, url.path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(.sync, url.path) }
    }

    /// The failure of the system call just made (its `errno`) on a file of this folder.
    func failure(_ action: FileAction, _ file: String) -> StoreError {
        StoreError(path: url.path, .externalDataFile(action: action, file: file, .lastSystemError))
    }
}
