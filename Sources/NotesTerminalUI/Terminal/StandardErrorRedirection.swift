import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Sends standard error to a log file (or nowhere) while the full-screen app owns the terminal,
/// so log lines (`--sql-debug`) and library warnings cannot write over the screen.
final class StandardErrorRedirection {
    private var saved: Int32

    /// Appends to `file`, created private (0600), or discards when nil.
    /// - Throws: `TerminalUnavailable` naming the file when it cannot be opened.
    init(to file: URL?) throws {
        let path = file?.path ?? "/dev/null"
        let target = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard target >= 0 else {
            throw TerminalUnavailable(description: "cannot open the log file \(path): \(String(cString: strerror(errno))); choose another with --log")
        }
        defer { close(target) }
        saved = dup(STDERR_FILENO)
        dup2(target, STDERR_FILENO)
    }

    /// Puts standard error back where it was. Safe to call more than once.
    func restore() {
        guard saved >= 0 else { return }
        dup2(saved, STDERR_FILENO)
        close(saved)
        saved = -1
    }
}
