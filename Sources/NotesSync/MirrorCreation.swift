import Foundation

/// Making a mirror where there is none, all or nothing: the repository is made and given its
/// remote in a private folder beside, then renamed into place. A full disk or a kill during
/// `git init` leaves no half-made mirror for every later sync to trip over.
enum MirrorCreation {
    static func make(_ folder: URL, machine: String, remote: String?) throws(SyncError) {
        let files = FileManager.default
        if files.fileExists(atPath: folder.path) {
            let contents: [String]
            do {
                contents = try files.contentsOfDirectory(atPath: folder.path)
            } catch {
                throw .file(path: folder.path, error)
            }
            guard contents.isEmpty else { throw .folderNotAMirror(path: folder.path, reason: .filesWithoutRepository) }
        }
        let parent = folder.deletingLastPathComponent()
        let building = parent.appendingPathComponent(".\(folder.lastPathComponent).new-\(getpid())")
        do {
            try? files.removeItem(at: building) // Left by an earlier attempt of this process id, if any: never a mirror.
            try files.createDirectory(at: building, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .file(path: building.path, error)
        }
        do {
            let git = Git(directory: building, machine: machine)
            try git.run(["init", "-q", "-b", MirrorRepository.branch])
            if let remote { try git.run(["remote", "add", MirrorRepository.remote, remote]) }
            // An empty folder the user made for the mirror is replaced whole (rename(2) takes
            // an empty directory's place).
            guard rename(building.path, folder.path) == 0 else {
                throw SyncError.file(path: folder.path, POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
        } catch {
            // Removing the half-made repository is all that is left to do; if even that fails,
            // the folder's name (.<mirror>.new-<pid>) says what it is.
            try? files.removeItem(at: building)
            throw error as? SyncError ?? .file(path: folder.path, error)
        }
    }

    /// Whether `.git` is what an interrupted `git init` leaves: no `HEAD`, `objects` or `refs`,
    /// and not one object. Such a folder holds nothing of the user's.
    static func isHalfMade(_ gitDirectory: URL) -> Bool {
        let files = FileManager.default
        guard files.fileExists(atPath: gitDirectory.path) else { return false }
        let essentials = ["HEAD", "objects", "refs"].map { gitDirectory.appendingPathComponent($0).path }
        guard !essentials.allSatisfy(files.fileExists(atPath:)) else { return false }
        let objects = gitDirectory.appendingPathComponent("objects")
        guard let walker = files.enumerator(at: objects, includingPropertiesForKeys: [.isRegularFileKey]) else { return true }
        // An entry that cannot be read is not counted as an object: the folder is then taken as half-made only if nothing else is there.
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            return false
        }
        return true
    }
}
