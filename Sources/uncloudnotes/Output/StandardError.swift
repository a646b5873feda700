@preconcurrency import Glibc

/// Standard error, for messages beside a command's output: written unbuffered, so a message
/// shows at once and in order. A failed write is ignored: there is nowhere left to report it,
/// and the exit code still tells (Foundation's `FileHandle.write` would trap instead).
enum StandardError {
    static func line(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` as it is (a question waiting on the same line for its answer).
    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
