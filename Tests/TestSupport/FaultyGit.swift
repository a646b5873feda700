import Foundation

/// A `git` found first on `PATH` that answers one kind of sync's git commands wrongly, the way
/// a failing disk, a broken wrapper or a killed child makes the real one answer, and runs the
/// real git for everything else (and for what git starts itself: upload-pack, hooks).
public struct FaultyGit {
    /// How the chosen command answers.
    public enum Answer: Sendable {
        /// Exits with `status`, printing `message` as git's fatal line, doing nothing.
        case fail(status: Int32, message: String)
        /// Exits 0 and prints nothing, doing nothing (a broken shim; git whose pipe write failed).
        case empty
        /// The real merge, then git's merge state lost as when `.git/MERGE_HEAD` cannot be
        /// written: conflicted files and index stay, exit 128.
        case mergeWithoutMergeHead
        /// The real command under strace, its `when`th `call` (in every process it starts)
        /// failing with `error` (EIO, ENOSPC).
        case injected(call: String, error: String, when: Int)
        /// The real git's answer: the command is only counted.
        case real
    }

    private let folder: TemporaryFolder
    private let count: URL
    private let command: String
    private let occurrence: Int?
    private let answer: Answer

    /// - Parameters:
    ///   - command: the git subcommand (`merge`, `cat-file`, `rev-parse`), or `*` for all.
    ///   - occurrence: which of the sync's calls of it answers wrongly (1 is the first); nil for every one.
    ///   - argument: when given, only calls with this argument count (`-e` of `cat-file -e`).
    public init(_ command: String, argument: String? = nil, occurrence: Int? = nil, answer: Answer) throws {
        folder = try TemporaryFolder()
        count = folder.url.appendingPathComponent("count")
        self.command = command
        self.occurrence = occurrence
        self.answer = answer
        guard let realGit = ["/usr/bin/git", "/usr/local/bin/git", "/bin/git"].first(where: FileManager.default.isExecutableFile) else {
            throw SpawnedProcess.SpawnError(description: "no git to wrap")
        }
        let action: String
        switch answer {
        case .fail(let status, let message): action = "echo 'fatal: \(message)' >&2; exit \(status)"
        case .empty: action = "exit 0"
        case .mergeWithoutMergeHead:
            action = """
                '\(realGit)' "$@" >/dev/null 2>&1
                rm -f .git/MERGE_HEAD .git/MERGE_MSG .git/MERGE_MODE
                echo "fatal: could not open '.git/MERGE_HEAD' for writing: Input/output error" >&2; exit 128
                """
        case .real: action = ":"
        case .injected(let call, let error, let when):
            action = "exec strace -f -qq -o /dev/null -e trace=\(call) -e inject=\(call):error=\(error):when=\(when) '\(realGit)' \"$@\""
        }
        // The subcommand is the first argument that is not an option (sync passes -c pairs first).
        let script = """
            #!/bin/sh
            if [ "$(cat /proc/$PPID/comm 2>/dev/null)" != "uncloudnotes" ]; then exec '\(realGit)' "$@"; fi
            sub=""; skip=0
            for argument in "$@"; do
              if [ "$skip" = 1 ]; then skip=0; continue; fi
              case "$argument" in -c) skip=1 ;; -*) ;; *) sub="$argument"; break ;; esac
            done
            case " $* " in \(argument.map { "*\" \($0) \"*" } ?? "*")) matches=1 ;; *) matches=0 ;; esac
            if [ "$matches" = 1 ] && { [ '\(command)' = '*' ] || [ "$sub" = '\(command)' ]; }; then
              n=$(( $(cat '\(count.path)' 2>/dev/null || echo 0) + 1 )); echo "$n" > '\(count.path)'
              if [ '\(occurrence.map(String.init) ?? "every")' = every ] || [ "$n" = '\(occurrence.map(String.init) ?? "")' ]; then
            \(action)
              fi
            fi
            exec '\(realGit)' "$@"

            """
        let wrapper = folder.url.appendingPathComponent("git")
        try ExecutableScript.write(script, to: wrapper)
    }

    /// The environment that puts this git first for the program run with it.
    public var environment: [String: String] {
        ["PATH": folder.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
    }

    /// How many times the program called the chosen command: 0 means the fault was never met.
    public var calls: Int {
        Int((try? String(contentsOf: count, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }
}
