import Foundation

/// Why an export could not be written, with the file and what to do, in one line.
public enum ExportError: Error, CustomStringConvertible {
    /// The path exists and is not a folder (a file given where the export needs a folder).
    case notAFolder(URL)
    /// The system refused to create or write the file or folder (`errno` kept as the cause).
    case cannotWrite(URL, errno: Int32)

    /// One line naming the path and what to do.
    public var description: String {
        switch self {
        case .notAFolder(let url):
            "\(url.path) exists and is not a folder; give a new or existing folder for the export"
        case .cannotWrite(let url, let code):
            "cannot write \(url.path) (\(String(cString: strerror(code)))); check that its folder exists and is writable"
        }
    }
}

/// Files and folders of exports, private to the user from the first byte: files 0600 and
/// folders 0700, also when an earlier export is overwritten.
public enum PrivateFiles {
    /// Writes the whole file, created (or truncated and re-moded) as 0600; `synced`: on the disk
    /// before this returns.
    public static func write(_ data: Data, to url: URL, synced: Bool = false) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ExportError.cannotWrite(url, errno: errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw ExportError.cannotWrite(url, errno: errno) }
        try writeAll(data, to: descriptor, of: url)
        if synced, fsync(descriptor) != 0 { throw ExportError.cannotWrite(url, errno: errno) }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, of url: URL) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ExportError.cannotWrite(url, errno: errno)
                }
                offset += written
            }
        }
    }

    /// Whether the path names something other than a regular file or folder: a device or a pipe
    /// (`/dev/stdout`, a FIFO), which is written into as a shell's `>` would, never replaced.
    private static func isSpecialFile(_ url: URL) -> Bool {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Replaces the file whole or not at all: written (0600) beside it, synced, then renamed over
    /// it, so an interrupted write leaves the file as it was. A device or a pipe is written into
    /// instead (its mode untouched): renaming over `/dev/full` would put a file in its place.
    /// A symbolic link is followed: the file it names is replaced, the link stays. A file the
    /// user can write in a folder they cannot is written in place, as no file can be made beside it.
    /// Errors name `link`, the file the caller gave, never the partial file.
    public static func replace(_ link: URL, with data: Data) throws {
        let url = link.resolvingSymlinksInPath()
        let folder = url.deletingLastPathComponent()
        let special = isSpecialFile(url)
        if special || (access(folder.path, W_OK) != 0 && access(url.path, W_OK) == 0) {
            let descriptor = open(url.path, O_WRONLY | O_CLOEXEC | (special ? 0 : O_TRUNC))
            guard descriptor >= 0 else { throw ExportError.cannotWrite(link, errno: errno) }
            defer { close(descriptor) }
            return try writeAll(data, to: descriptor, of: link)
        }
        let partial = folder.appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())")
        do {
            try write(data, to: partial, synced: true)
            guard rename(partial.path, url.path) == 0 else { throw ExportError.cannotWrite(link, errno: errno) }
        } catch ExportError.cannotWrite(_, let cause) {
            // The partial file is ours alone; removing it is best effort.
            unlink(partial.path)
            throw ExportError.cannotWrite(link, errno: cause)
        }
    }

    /// Makes the folder (0700) unless it exists; refuses a path that is something else.
    public static func makeFolder(_ url: URL) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw ExportError.notAFolder(url) }
            return
        }
        guard mkdir(url.path, 0o700) == 0 || errno == EEXIST else { throw ExportError.cannotWrite(url, errno: errno) }
    }
}
