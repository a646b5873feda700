import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a store's external files follow it through a migration (`MigrationFiles`, `StoreMigrator`):
/// the working copy and the backup get the store's files as hard links in their own folders
/// (values' files are never changed, only made and removed, so stores may share them), and the
/// store takes the working copy's files only at the final rename.
extension ExternalDataFolder {
    /// Makes this folder hold the same files as `other`, as hard links; whatever it held before
    /// is removed first.
    func replaceContents(withFilesOf other: ExternalDataFolder) throws {
        removeSupportFolder()
        try add(other.fileNames(), from: other)
    }

    /// Whether the support folder is there: a copy removes it after a failure only if it made it.
    var supportFolderExists: Bool { FileManager.default.fileExists(atPath: supportFolder.path) }

    /// Removes the folder of a store a failed copying migration was writing, when that copy made
    /// it: a folder that was there already (the source's, for `A.sqlite` copied to `A.store`, or
    /// another store's of the same name) holds files that are not this copy's to remove.
    static func removeAfterFailedCopy(to destination: URL, existedBefore: Bool) {
        guard !existedBefore else { return }
        ExternalDataFolder(storeAt: StorePath.real(destination)).removeSupportFolder()
    }

    /// Moves this folder into `other`'s place (replacing it), as the file it belongs to is renamed.
    func move(to other: ExternalDataFolder) throws {
        other.removeSupportFolder()
        guard FileManager.default.fileExists(atPath: supportFolder.path) else { return }
        guard rename(supportFolder.path, other.supportFolder.path) == 0 else {
            throw failure(.rename, supportFolder.path)
        }
    }

    /// Gives the store exactly the files of the migrated working copy around `replaceStore`, the
    /// rename of the working copy over the store (the migration's commit). The new files are
    /// linked in first, so the renamed store finds every file it names; if the rename fails they
    /// are removed again and the store's folder is as it was. After it, the files only the old
    /// store used go (its backup keeps its own links) and the working copy's folder goes.
    static func replaceStoreFiles(of store: ExternalDataFolder, with working: ExternalDataFolder,
                                         around replaceStore: () throws -> Void) throws {
        let wanted = Set(try working.fileNames()), present = Set(try store.fileNames())
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
            let source = other.file(named: name), destination = file(named: name)
            // A private copy wherever the file system refuses a link, as for the backup.
            guard !DurableFiles.link(source, to: destination) else { continue }
            try DurableFiles.copyPrivately(source, to: destination)
            try DurableFiles.sync(destination)
        }
        try syncFolder()
    }

    /// The support folder, its `_EXTERNAL_DATA` folder and every file in it, for a migration run
    /// by root to hand them to the store's owner.
    func entries() throws -> [URL] {
        guard FileManager.default.fileExists(atPath: supportFolder.path) else { return [] }
        return [supportFolder, url] + (try fileNames()).map(file(named:))
    }
}
