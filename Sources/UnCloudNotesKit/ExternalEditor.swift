import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The user's editor (`$VISUAL`, else `$EDITOR`, else `vi`), run the way `git commit` runs it, for
/// `notes add`/`notes edit` at a terminal and for the full-screen app's Ctrl-E alike.
///
/// The editor runs in this process's own process group, the terminal's foreground group, as a
/// shell's `$EDITOR file` would: Foundation's `Process` on Linux starts children in a group of
/// their own, where an editor that reads the terminal is stopped (SIGTTIN) or reads nothing.
/// While it runs, Ctrl-C and Ctrl-\ are the editor's: this process ignores them, as `system(3)` does.
public struct ExternalEditor: Sendable {
    /// Why the editor gave nothing to use. Nothing typed is lost: a failed editor's draft is kept.
    public enum Failure: Error, CustomStringConvertible {
        case cannotStart(command: String, errno: Int32)
        case failed(command: String, status: Int32, draft: URL)
        case cannotWriteDraft(URL, underlying: Error)
        case cannotReadDraft(URL, underlying: Error)

        public var description: String {
            switch self {
            case .cannotStart(let command, let code):
                "cannot start the editor \"\(command)\" (\(String(cString: strerror(code)))); set $VISUAL or $EDITOR"
            case .failed(let command, let status, let draft):
                "the editor \"\(command)\" exited with status \(status); nothing was written, the draft is kept in \(draft.path)"
            case .cannotWriteDraft(let url, let underlying):
                "cannot write the draft \(url.path) for the editor (\(underlying.localizedDescription))"
            case .cannotReadDraft(let url, let underlying):
                "cannot read the edited draft back from \(url.path) (\(underlying.localizedDescription)); it is kept there"
            }
        }
    }

    /// The command line of the editor; run by `sh`, so `EDITOR="vim -u NONE"` works.
    public let command: String

    public init(command: String) {
        self.command = command
    }

    /// The editor the environment names, as git chooses it.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ExternalEditor {
        let named = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
        return ExternalEditor(command: named ?? "vi")
    }

    /// Lets the user edit `text` in a private temporary file and returns what they saved. The file
    /// is removed afterwards unless the editor failed, when it is kept (and named) so nothing typed
    /// is lost. `handOver` wraps the editor's run: the full-screen app leaves its screen there.
    public func edit(_ text: String, fileName: String = "note.txt",
                     handOver: (() throws -> Int32) throws -> Int32 = { try $0() }) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-\(UUID().uuidString)")
        let draft = folder.appendingPathComponent(fileName)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard FileManager.default.createFile(atPath: draft.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw Failure.cannotWriteDraft(draft, underlying: error)
        }
        let status = try handOver { try run(on: draft) }
        guard status == 0 else { throw Failure.failed(command: command, status: status, draft: draft) }
        let edited: String
        do {
            edited = try String(contentsOf: draft, encoding: .utf8)
        } catch {
            throw Failure.cannotReadDraft(draft, underlying: error)
        }
        // Removing the private temporary folder can only fail if it is already gone.
        try? FileManager.default.removeItem(at: folder)
        return edited
    }

    /// Runs `sh -c '<command> "$1"' sh <file>` in the foreground and waits: its exit status, or
    /// 128 + n after signal n (a shell that cannot find the editor exits with 127).
    private func run(on file: URL) throws -> Int32 {
        var ignore = sigaction(), savedInterrupt = sigaction(), savedQuit = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigaction(SIGINT, &ignore, &savedInterrupt)
        sigaction(SIGQUIT, &ignore, &savedQuit)
        defer {
            sigaction(SIGINT, &savedInterrupt, nil)
            sigaction(SIGQUIT, &savedQuit, nil)
        }
        // The editor gets Ctrl-C and Ctrl-\ back, and no blocked signals (a parent may block them).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), unblocked = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = ["/bin/sh", "-c", "\(command) \"$1\"", "sh", file.path]
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, cArguments, environ)
        guard spawned == 0 else { throw Failure.cannotStart(command: command, errno: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw Failure.cannotStart(command: command, errno: errno) }
        }
        let signalNumber = status & 0x7f
        return signalNumber == 0 ? (status >> 8) & 0xff : 128 + signalNumber
    }
}
