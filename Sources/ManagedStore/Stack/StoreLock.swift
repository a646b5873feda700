import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a store, held by the one process that migrates it: an `flock` on
/// `<store>.lock` (0600). The system releases it when the process ends, however it ends, so a
/// killed migration never leaves the store locked.
///
/// The lock file also holds the names of the files a migration is about to create, so the next
/// run removes exactly those after an interruption, never a user's file that merely looks similar.
public final class StoreLock {
    private let descriptor: Int32
    /// The lock file, `<store>.lock`.
    public let url: URL
    /// The store the lock is for: recorded names are of files beside it.
    private let storeURL: URL

    /// Takes the lock on the store at `storeURL` (its real path: aliases share one lock);
    /// `whileWaiting` is called once if another process holds it, before waiting.
    public init(for storeURL: URL, whileWaiting: () -> Void = {}) throws {
        self.storeURL = storeURL
        url = URL(fileURLWithPath: storeURL.path + ".lock")
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw MigrationError.file(path: url.path, problem: .cannotCreateLock(errno: errno))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                close(descriptor)
                throw MigrationError.file(path: url.path, problem: .cannotLock(errno: errno))
            }
            whileWaiting()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    throw MigrationError.file(path: url.path, problem: .cannotLock(errno: errno))
                }
            }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Gives the lock file the owner of the store, so a migration run by root leaves it usable.
    func setOwner(user: uid_t, group: gid_t) {
        _ = fchown(descriptor, user, group)
    }

    /// The file names a run recorded and did not clear: it was interrupted.
    func recordedNames() -> [String] {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            contents += chunk.prefix(count)
            offset += off_t(count)
        }
        return String(decoding: contents, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Removes the files an interrupted run recorded, by exact name: only regular files beside
    /// the store named after it, never a folder; then clears the record.
    /// - Returns: the names removed, sorted.
    func removeRecordedFiles() throws -> [String] {
        let recorded = recordedNames()
        guard !recorded.isEmpty else { return [] }
        let folder = storeURL.deletingLastPathComponent()
        let prefix = storeURL.lastPathComponent + "."
        let removed = recorded.filter { name in
            name.hasPrefix(prefix) && !name.contains("/") && DurableFiles.removeFile(folder.appendingPathComponent(name))
        }
        try record([])
        return removed.sorted()
    }

    /// Records, durably, the names of files about to be created (one per line), replacing any
    /// earlier record; an empty list clears it.
    func record(_ names: [String]) throws {
        let bytes = Array(names.map { $0 + "\n" }.joined().utf8)
        guard ftruncate(descriptor, 0) == 0 else { throw failure(.cannotWriteLock(errno: errno)) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written, off_t(written)) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw failure(.cannotWriteLock(errno: errno)) }
            written += result
        }
        guard fdatasync(descriptor) == 0 else { throw failure(.cannotSyncLock(errno: errno)) }
    }

    private func failure(_ problem: MigrationError.FileProblem) -> MigrationError {
        MigrationError.file(path: url.path, problem: problem)
    }
}
