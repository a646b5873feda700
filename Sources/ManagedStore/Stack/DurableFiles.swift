import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File operations that survive a crash or power loss: data synced to disk before a rename, and
/// the rename itself made durable by syncing the folder. Every system call's error is reported:
/// a sync that failed means the data may not be on disk, so the migration must not claim success.
enum DurableFiles {
    #if canImport(Glibc)
    private static let systemRename = Glibc.rename
    private static let systemLink = Glibc.link
    #else
    private static let systemRename = Darwin.rename
    private static let systemLink = Darwin.link
    #endif

    /// Makes syncs (or `chown`s) of the task fail: see `InjectedFailure`.
    @TaskLocal static var injectedFailure: InjectedFailure?

    /// Flushes a file's data to disk (`fdatasync`).
    static func sync(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open \(url.path) to sync it") }
        defer { close(descriptor) }
        guard flush(descriptor, fdatasync) else { throw failure("cannot sync \(url.path) to disk") }
    }

    /// Flushes a folder's entries (names created, renamed or removed) to disk.
    static func syncFolder(_ folder: URL) throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot open the folder \(folder.path) to sync it") }
        defer { close(descriptor) }
        guard flush(descriptor, fsync) else { throw failure("cannot sync the folder \(folder.path) to disk") }
    }

    /// Runs a sync call, or fails as injected; false (with `errno` set) on failure.
    private static func flush(_ descriptor: Int32, _ call: (Int32) -> Int32) -> Bool {
        if injectedFailure?.fails(.sync) == true { return false }
        return call(descriptor) == 0
    }

    /// Atomically replaces `destination` with `source` (same folder), durably.
    static func rename(_ source: URL, to destination: URL) throws {
        try renameQuickly(source, to: destination)
        try syncFolder(destination.deletingLastPathComponent())
    }

    /// Atomically replaces `destination` with `source`, without syncing: for files no one relies on yet.
    static func renameQuickly(_ source: URL, to destination: URL) throws {
        guard systemRename(source.path, destination.path) == 0 else {
            throw failure("cannot rename \(source.path) to \(destination.lastPathComponent)")
        }
    }

    /// Gives the file `source` a second name, `destination` (a hard link: the same bytes, no
    /// copy). The destination must not exist.
    /// - Returns: false when the file system refuses (no hard links there, another device).
    static func link(_ source: URL, to destination: URL) -> Bool {
        systemLink(source.path, destination.path) == 0
    }

    /// Copies `source` into a new file `destination` readable by its owner only (0600). The
    /// destination must not exist: an existing file is never overwritten. Where the file system
    /// can clone a file (`FICLONE`: btrfs, XFS, bcachefs), the copy is a clone: it shares the
    /// source's blocks until either is written, so a copy of gigabytes costs milliseconds.
    /// - Returns: how the copy was made.
    @discardableResult
    static func copyPrivately(_ source: URL, to destination: URL) throws -> FileDuplication {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("cannot read \(source.path)") }
        defer { close(input) }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw failure("cannot create \(destination.path)") }
        defer { close(output) }
        if clone(input, into: output) { return .clone }
        try copyBytes(input, into: output, source: source, destination: destination)
        return .copy
    }

    /// `ioctl(FICLONE)`: the request number is `_IOW(0x94, 9, int)`, as in `<linux/fs.h>`.
    private static let cloneRequest: UInt = 0x4004_9409

    /// Makes `output` (new and empty) share all of `input`'s blocks; false where the file system
    /// cannot (ext4, tmpfs, another device), and the caller copies instead.
    private static func clone(_ input: Int32, into output: Int32) -> Bool {
        #if os(Linux)
        return ioctl(output, cloneRequest, input) == 0
        #else
        return false
        #endif
    }

    private static func copyBytes(_ input: Int32, into output: Int32, source: URL, destination: URL) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure("cannot read \(source.path)") }
            if count == 0 { return }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress.map { $0 + written }, count - written) }
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else { throw failure("cannot write \(destination.path)") }
                written += result
            }
        }
    }

    /// Removes a regular file, never a folder; a missing file is fine.
    /// - Returns: whether a file was removed.
    @discardableResult
    static func removeFile(_ url: URL) -> Bool {
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        return unlink(url.path) == 0
    }

    /// Whether anything (file, folder or link) is at `url`, without following a link.
    static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    private static func failure(_ what: String) -> MigrationError {
        .fileSystem(operation: what, errno: errno)
    }
}

/// How a file was duplicated (a migration's backup says which, for reports): a hard link is the
/// same file under a second name, a clone shares the original's blocks until either is written
/// (copy-on-write), a copy wrote every byte again.
public enum FileDuplication: String, Sendable {
    /// A second name for the same file: instant, no space used.
    case hardLink = "hard link"
    /// A copy-on-write clone (`FICLONE`): instant, sharing blocks until written.
    case clone
    /// Every byte written again.
    case copy
}
