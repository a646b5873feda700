import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One sync of a mirror at a time: an exclusive `flock` on `.git/uncloudnotes-sync.lock`, which
/// the system releases when the process ends, however it ends.
final class SyncLock {
    private let descriptor: Int32

    init(in gitDirectory: URL, mirror: URL) throws(SyncError) {
        let path = gitDirectory.appendingPathComponent("uncloudnotes-sync.lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .file(path: path, POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .alreadyRunning(mirror: mirror.path)
        }
    }

    /// Unlocked before it is closed: a process another thread is starting at this moment holds a
    /// copy of the descriptor until its exec, and a lock only closed would live on in that copy,
    /// refusing the next sync ("another sync is running").
    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
