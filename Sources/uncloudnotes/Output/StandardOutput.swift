@preconcurrency import Glibc
import Synchronization

/// Standard output, the one way every command prints: through C stdio's buffer (so a
/// million-line list costs few system calls, in order with anything else printed), with every
/// write and the final flush checked. Output that did not arrive (a full disk, `> /dev/full`) is
/// an error, exit 1, never a silent success that leaves a backup script with a cut file. A reader
/// that went away (`| head -1`) ends the program quietly, as git does.
enum StandardOutput {
    /// The cause of the first failed write: later writes are skipped, and `finish` reports it.
    private static let failure = Mutex<Int32?>(nil)

    /// Writes `text` and a line break.
    static func line(_ text: String) throws {
        try write(text + "\n")
    }

    static func write(_ text: String) throws {
        try throwEarlierFailure()
        var text = text
        let complete = text.withUTF8 { bytes in
            bytes.isEmpty || fwrite(bytes.baseAddress, 1, bytes.count, stdout) == bytes.count
        }
        if !complete { try fail(errno) }
    }

    /// Writes bytes as they are (an image).
    static func write(_ bytes: UnsafeRawBufferPointer) throws {
        try throwEarlierFailure()
        if !bytes.isEmpty, fwrite(bytes.baseAddress, 1, bytes.count, stdout) != bytes.count { try fail(errno) }
    }

    /// For callers that cannot throw (a migration's observer, the walkthrough's printer): a
    /// failure is kept, so the work goes on to its end and `finish` reports it then.
    /// `flushing` sends it at once (a progress bar).
    static func writeKeepingFailure(_ text: String, flushing: Bool = false) {
        do {
            try write(text)
            if flushing { try flush() }
        } catch {
            return
        }
    }

    /// Sends what is buffered now: a progress line that must show before the work goes on.
    static func flush() throws {
        try throwEarlierFailure()
        if fflush(stdout) != 0 { try fail(errno) }
    }

    /// Called once a command is done: everything it printed, by this type or by `print`,
    /// reached the file, or the error says why not.
    static func finish() throws {
        try flush()
        if ferror(stdout) != 0 { throw OutputError.standardOutput(errno: nil) }
    }

    private static func throwEarlierFailure() throws {
        if let cause = failure.withLock({ $0 }) { throw OutputError.standardOutput(errno: cause) }
    }

    private static func fail(_ cause: Int32) throws -> Never {
        if cause == EPIPE { endBecauseReaderLeft() }
        failure.withLock { $0 = $0 ?? cause }
        throw OutputError.standardOutput(errno: cause)
    }

    /// The reader closed the pipe while SIGPIPE was ignored (a parent may ignore it for its
    /// children): end the way the default SIGPIPE would have, as git does, quietly.
    private static func endBecauseReaderLeft() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        _exit(128 + SIGPIPE)
    }
}

/// Output that could not be written, with the system's reason when it gave one.
enum OutputError: Error, CustomStringConvertible {
    case standardOutput(errno: Int32?)

    var description: String {
        switch self {
        case .standardOutput(let cause?): "cannot write to standard output: \(String(cString: strerror(cause)))"
        case .standardOutput(nil): "cannot write to standard output"
        }
    }
}
