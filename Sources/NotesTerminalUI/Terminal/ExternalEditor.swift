import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Edits text in `$VISUAL` or `$EDITOR` (else `vi`), with the terminal handed over meanwhile.
///
/// The editor runs in this process's own process group, the terminal's foreground group, as a
/// shell's `$EDITOR file` would: Foundation's `Process` on Linux starts children in a group of
/// their own, where an editor that reads the terminal is stopped (SIGTTIN) or cannot set it up.
/// While it runs, Ctrl-C and Ctrl-\ are the editor's: this process ignores them, as `system(3)` does.
enum ExternalEditor {
    static func edit(_ text: String, environment: [String: String], screen: TerminalScreen) -> (text: String?, error: String?) {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-\(UUID().uuidString).txt")
        // The draft file is private: it holds the note while the editor runs.
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            return (nil, "cannot write the draft for the editor in \(file.deletingLastPathComponent().path)")
        }
        defer { try? FileManager.default.removeItem(at: file) } // a leftover temporary file is harmless
        let result = screen.suspended { run(["/bin/sh", "-c", "\(editor) \"$1\"", "editor", file.path]) }
        switch result {
        case .failure(let reason):
            return (nil, "cannot run the editor (\(editor)): \(reason)")
        case .success(let status) where status != 0:
            return (nil, "the editor (\(editor)) exited with status \(status); the body is unchanged")
        case .success:
            do {
                return (try String(contentsOf: file, encoding: .utf8), nil)
            } catch {
                return (nil, "cannot read the edited text back (\(file.path)): \(error.localizedDescription)")
            }
        }
    }

    private struct SpawnFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `arguments` in the foreground and waits; its exit status (128 + n after signal n).
    private static func run(_ arguments: [String]) -> Result<Int32, SpawnFailure> {
        var ignore = sigaction(), savedInterrupt = sigaction(), savedQuit = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGINT, &ignore, &savedInterrupt)
        sigaction(SIGQUIT, &ignore, &savedQuit)
        defer {
            sigaction(SIGINT, &savedInterrupt, nil)
            sigaction(SIGQUIT, &savedQuit, nil)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], nil, &attributes, cArguments, environ)
        guard spawned == 0 else { return .failure(SpawnFailure(description: String(cString: strerror(spawned)))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .failure(SpawnFailure(description: String(cString: strerror(errno)))) }
        }
        let signalNumber = status & 0x7f
        return .success(signalNumber == 0 ? (status >> 8) & 0xff : 128 + signalNumber)
    }
}
