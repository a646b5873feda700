import Foundation

/// The user's editor (`$VISUAL`, else `$EDITOR`, else `vi`), run the way `git commit` runs it:
/// in our own process group, so it stays in the terminal's foreground and can read the keyboard
/// (Foundation's `Process` starts children in a new group on Linux, where the editor would stop
/// or read nothing). The app has its own launcher in NotesTerminalUI; the two are to be folded.
struct ExternalEditor {
    /// Why the editor gave nothing to use.
    enum Failure: Error, CustomStringConvertible {
        case cannotStart(command: String, errno: Int32)
        case failed(command: String, status: Int32, draft: URL)
        case cannotWriteDraft(URL, underlying: Error)

        var description: String {
            switch self {
            case .cannotStart(let command, let code):
                "cannot start the editor \"\(command)\" (\(String(cString: strerror(code)))); set $VISUAL or $EDITOR, or give --body"
            case .failed(let command, let status, let draft):
                "the editor \"\(command)\" exited with status \(status); nothing was written, the draft is kept in \(draft.path)"
            case .cannotWriteDraft(let url, let underlying):
                "cannot write the draft \(url.path) (\(underlying.localizedDescription)); give --body instead"
            }
        }
    }

    let command: String

    /// The editor the environment names, as git chooses it.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> ExternalEditor {
        let named = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
        return ExternalEditor(command: named ?? "vi")
    }

    /// Lets the user edit `text` in a private temporary file and returns what they saved. The
    /// file is removed afterwards unless the editor failed, when it is kept (and named) so
    /// nothing typed is lost.
    func edit(_ text: String, fileName: String = "note.txt") throws -> String {
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
        let status = try run(on: draft)
        guard status == 0 else { throw Failure.failed(command: command, status: status, draft: draft) }
        let edited = (try? String(contentsOf: draft, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: folder)
        return edited
    }

    /// Runs `sh -c '<command> "$1"' sh <file>` (so `EDITOR="vim -u NONE"` works) in the
    /// foreground, with Ctrl-C and Ctrl-\ going to the editor alone, and waits for it.
    private func run(on file: URL) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        sigaddset(&defaultSignals, SIGINT)
        sigaddset(&defaultSignals, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
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
        // A shell that cannot find the editor exits with 127; a signal counts as a failure too.
        let exitedNormally = status & 0x7f == 0
        return exitedNormally ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
