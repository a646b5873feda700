import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file the user named (an image to attach, an export to import), saying what
/// stopped it: missing, a folder, not allowed, or the system's reason. It reads to the end
/// rather than by the size the file claims, so a pipe, a FIFO or `/dev/stdin` reads as a regular
/// file does.
public enum UserFile {
    /// The whole file at `url`, or a `UserFileError` saying why it cannot be read.
    public static func contents(of url: URL) throws -> Data {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw UserFileError(path: url.path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw UserFileError.folder(path: url.path)
        }
        return try readToEnd(descriptor) { UserFileError(path: url.path, errno: $0) }
    }

    /// All of standard input (`-` in place of a file name).
    public static func standardInput() throws -> Data {
        try readToEnd(STDIN_FILENO) { .unreadable(path: "standard input", errno: $0) }
    }

    private static func readToEnd(_ descriptor: Int32, failure: (Int32) -> UserFileError) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            data.append(contentsOf: chunk[..<count])
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
