import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's permission bits and owner, read from the store before a migration and given to the
/// migrated file, so a 0600 store stays 0600 and a migration run by root leaves the user's store
/// the user's.
struct FileOwnership: Equatable {
    let mode: mode_t
    let user: uid_t
    let group: gid_t

    init(of url: URL) throws {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            throw MigrationError.file(path: url.path, problem: .cannotReadOwnership(errno: errno))
        }
        mode = status.st_mode & 0o7777
        user = status.st_uid
        group = status.st_gid
    }

    /// Only root can (and must) hand a file back to the store's owner.
    private var mustChangeOwner: Bool { geteuid() == 0 && (user != 0 || group != 0) }

    func apply(to url: URL) throws {
        try applyOwner(to: url)
        guard chmod(url.path, mode) == 0 else {
            throw MigrationError.file(path: url.path, problem: .cannotSetPermissions(errno: errno))
        }
    }

    /// Gives a file the store's owner, keeping its mode (a 0600 backup stays 0600). A file left
    /// root's would lock the user out of their own store's files.
    func applyOwner(to url: URL) throws {
        guard mustChangeOwner else { return }
        if DurableFiles.injectedFailure?.fails(.changeOwner) == true || chown(url.path, user, group) != 0 {
            throw MigrationError.file(path: url.path, problem: .cannotSetOwner(errno: errno))
        }
    }
}
