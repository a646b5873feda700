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
    public func write(_ value: Data) throws -> String {
        try createFolders()
        let name = UUID().uuidString
        let path = file(named: name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(path)") }
        defer { close(descriptor) }
        try value.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let result = Glibc.write(descriptor, bytes.baseAddress.map { $0 + written }, bytes.count - written)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { throw failure("cannot write \(path)") }
                written += result
            }
        }
        guard fsync(descriptor) == 0 else { throw failure("cannot sync \(path) to disk") }
        try syncFolder()
        return name
    }

    /// Removes values' files; a missing one is fine (another save may have removed it).
    public func remove(_ names: some Sequence<String>) {
        for name in names { unlink(file(named: name).path) }
    }

    /// The names of the files in the folder (none when it does not exist).
    public func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    /// Makes this folder hold the same files as `other`, as hard links: values' files are never
    /// changed, only made and removed, so two stores may share them. Whatever this folder held
    /// before is removed first.
    public func replaceContents(withFilesOf other: ExternalDataFolder) throws {
        removeSupportFolder()
        try add(other.fileNames(), from: other)
    }

    /// Gives a migration's working copy the store's files, and clears the folder of the file
    /// copying steps write (an interrupted run may have left one).
    static func prepareWorkingCopy(of store: URL, working: URL, nextWorking: URL) throws {
        ExternalDataFolder(storeAt: nextWorking).removeSupportFolder()
        try ExternalDataFolder(storeAt: working).replaceContents(withFilesOf: ExternalDataFolder(storeAt: store))
    }

    /// Removes the folder of a store a failed copying migration was writing, unless the source
    /// store uses the same folder (`A.sqlite` copied to `A.store`): its files are the source's too.
    static func removeAfterFailedCopy(to destination: URL, from source: URL) {
        let folder = ExternalDataFolder(storeAt: StorePath.real(destination))
        guard folder != ExternalDataFolder(storeAt: StorePath.real(source)) else { return }
        folder.removeSupportFolder()
    }

    /// Moves this folder into `other`'s place (replacing it), as the file it belongs to is renamed.
    public func move(to other: ExternalDataFolder) throws {
        other.removeSupportFolder()
        guard FileManager.default.fileExists(atPath: supportFolder.path) else { return }
        guard rename(supportFolder.path, other.supportFolder.path) == 0 else {
            throw failure("cannot rename \(supportFolder.path) to \(other.supportFolder.lastPathComponent)")
        }
    }

    /// Gives the store exactly the files of the migrated working copy around `replaceStore`, the
    /// rename of the working copy over the store (the migration's commit). The new files are
    /// linked in first, so the renamed store finds every file it names; if the rename fails they
    /// are removed again and the store's folder is as it was. After it, the files only the old
    /// store used go (its backup keeps its own links) and the working copy's folder goes.
    public static func replaceStoreFiles(of store: ExternalDataFolder, with working: ExternalDataFolder,
                                         around replaceStore: () throws -> Void) throws {
        let wanted = Set(working.fileNames()), present = Set(store.fileNames())
        let added = wanted.subtracting(present).sorted()
        try store.add(added, from: working)
        do {
            try replaceStore()
        } catch {
            store.remove(added)
            throw error
        }
        store.remove(present.subtracting(wanted))
        working.removeSupportFolder()
    }

    /// Links files of another folder into this one (a copy where no link can be made), synced.
    func add(_ names: [String], from other: ExternalDataFolder) throws {
        guard !names.isEmpty else { return }
        try createFolders()
        for name in names {
            let source = other.file(named: name).path, destination = file(named: name).path
            guard link(source, destination) != 0 else { continue }
            guard errno == EXDEV || errno == EPERM else { throw failure("cannot link \(source) to \(destination)") }
            try DurableFiles.copyPrivately(other.file(named: name), to: file(named: name))
            try DurableFiles.sync(file(named: name))
        }
        try syncFolder()
    }

    /// Removes `.<name>_SUPPORT` and everything in it; a missing folder is fine.
    public func removeSupportFolder() {
        try? FileManager.default.removeItem(at: supportFolder)
    }

    private func createFolders() throws {
        for folder in [supportFolder, url] where !FileManager.default.fileExists(atPath: folder.path) {
            guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST else { throw failure("cannot create \(folder.path)") }
        }
    }

    private func syncFolder() throws {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open \(url.path) to sync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("cannot sync \(url.path) to disk") }
    }

    private func failure(_ what: String) -> StoreError {
        StoreError(path: url.path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
