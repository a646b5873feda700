import Foundation

/// The temporary folder a check migrates its copies in, `model-check-PID-UUID`, holding a lock
/// file the check keeps locked (`flock`) while it runs. A check interrupted before it could
/// remove its folder (Ctrl-C, a CI job's timeout) leaves it unlocked, and the next check
/// removes it. The lock, not the process ID, says whether a check still runs: it holds across
/// containers that share a temporary folder, where process IDs do not.
final class CheckScratchFolder {
    static let prefix = "model-check-"
    static let lockName = "check.lock"

    /// The folder; removed by `remove()`.
    let url: URL
    private let lock: Int32

    /// Makes the folder and locks it, after removing those of checks no longer running.
    init(in parent: URL = FileManager.default.temporaryDirectory) throws {
        Self.removeAbandoned(in: parent)
        url = parent.appendingPathComponent("\(Self.prefix)\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        lock = open(url.appendingPathComponent(Self.lockName).path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            if lock >= 0 { close(lock) }
            // The folder is ours and empty but for the lock file.
            try? FileManager.default.removeItem(at: url)
            throw failure
        }
    }

    /// Removes the folder and lets go of its lock.
    func remove() {
        // Our own folder in the temporary directory: one left behind is removed by the next check.
        try? FileManager.default.removeItem(at: url)
        close(lock)
    }

    /// Removes the folders of checks no longer running: named as a check names them, folders
    /// (not links) of this user, whose lock file can be locked.
    static func removeAbandoned(in parent: URL) {
        // An unreadable temporary directory only means nothing is swept; the check goes on.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where isCheckFolderName(name) {
            let folder = parent.appendingPathComponent(name)
            var status = stat()
            guard lstat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else { continue }
            let lock = open(folder.appendingPathComponent(lockName).path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            // Locked: a check is running in it.
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { continue }
            // Another check may be sweeping the same folder: whoever removes it first wins.
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// `model-check-` then a process ID, `-`, and a UUID: nothing a person would name a folder.
    static func isCheckFolderName(_ name: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), Int32(rest[..<dash]) != nil else { return false }
        return UUID(uuidString: String(rest[rest.index(after: dash)...])) != nil
    }
}
