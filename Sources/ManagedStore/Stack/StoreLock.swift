import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a store, held by the one process that migrates it: an `flock` on
/// `<store>.lock`. The system releases it when the process ends, however it ends, so a killed
/// migration never leaves the store locked.
public final class StoreLock {
    private let descriptor: Int32
    public let url: URL

    /// Takes the lock; `whileWaiting` is called once if another process holds it, before waiting.
    public init(for storeURL: URL, whileWaiting: () -> Void = {}) throws {
        url = URL(fileURLWithPath: storeURL.path + ".lock")
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw MigrationError("\(url.path): cannot create the lock file (\(String(cString: strerror(errno))))")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                close(descriptor)
                throw MigrationError("\(url.path): cannot lock (\(String(cString: strerror(errno))))")
            }
            whileWaiting()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    close(descriptor)
                    throw MigrationError("\(url.path): cannot lock (\(String(cString: strerror(errno))))")
                }
            }
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
