import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file the user named (an image to attach), saying what stopped it: missing, a
/// folder, not allowed, or the system's reason. It reads to the end rather than by the size the
/// file claims, so a pipe, a FIFO or `/dev/stdin` reads as a regular file does.
public enum UserFile {
    /// The whole file at `url`, or a `UserFileError` saying why it cannot be read.
    public static func contents(of url: URL) throws -> Data {
        let file = try UserFileChunks(url: url)
        var data = Data()
        while let chunk = try file.next() { data.append(contentsOf: chunk) }
        return data
    }
}

/// A file the user named (or standard input), read a chunk at a time, so a big export is never
/// all in memory; errors as `UserFileError`.
public final class UserFileChunks {
    private static let chunkSize = 1 << 16
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let path: String

    /// Opens the file at `url`: a missing file, a folder or one the user may not read is refused here.
    public convenience init(url: URL) throws(UserFileError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw UserFileError(path: url.path, errno: errno) }
        self.init(descriptor: descriptor, closesDescriptor: true, path: url.path)
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { throw .folder(path: url.path) }
    }

    /// Standard input (`-` in place of a file name), left open when done.
    public static func standardInput() -> UserFileChunks {
        UserFileChunks(descriptor: STDIN_FILENO, closesDescriptor: false, path: "standard input")
    }

    private init(descriptor: Int32, closesDescriptor: Bool, path: String) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        self.path = path
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The next bytes (at most 64 KB), nil at the end.
    public func next() throws(UserFileError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                throw UserFileError(path: path, errno: errno)
            }
            chunk.removeSubrange(count...)
            return chunk
        }
    }
}

/// Why a file the user named could not be read.
public enum UserFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing is at the path.
    case missing(path: String)
    /// The path is a folder.
    case folder(path: String)
    /// The user may not read the file.
    case notAllowed(path: String)
    /// Another error of the system (an `errno` value).
    case unreadable(path: String, errno: Int32)

    init(path: String, errno cause: Int32) {
        switch cause {
        case ENOENT, ENOTDIR: self = .missing(path: path)
        case EISDIR: self = .folder(path: path)
        case EACCES, EPERM: self = .notAllowed(path: path)
        default: self = .unreadable(path: path, errno: cause)
        }
    }

    /// The file the user named.
    public var path: String {
        switch self {
        case .missing(let path), .folder(let path), .notAllowed(let path), .unreadable(let path, _): path
        }
    }

    /// What is wrong, without the path.
    public var reason: String {
        switch self {
        case .missing: "no such file"
        case .folder: "this is a folder, not a file"
        case .notAllowed: "you are not allowed to read it"
        case .unreadable(_, let cause): "cannot read it (\(String(cString: strerror(cause))))"
        }
    }

    /// `path: reason`, one line.
    public var description: String { "\(path): \(reason)" }
}
