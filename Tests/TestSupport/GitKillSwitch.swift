import Foundation

/// Kills a sync between two of its git commands, from outside the program: a `git` found
/// first on `PATH` that runs the real one, counts the commands the sync started, and after the
/// Nth sends SIGKILL to the sync (its parent), as a crash or a power loss would stop it right
/// then. The shipped program has no hook for this.
public struct GitKillSwitch {
    private let folder: TemporaryFolder

    public init() throws {
        folder = try TemporaryFolder()
        guard let realGit = ["/usr/bin/git", "/usr/local/bin/git", "/bin/git"].first(where: FileManager.default.isExecutableFile) else {
            throw SpawnedProcess.SpawnError(description: "no git to wrap")
        }
        // Commands git starts itself (git-upload-pack, hooks) are not the sync's: only those
        // whose parent is the program count.
        let script = """
            #!/bin/sh
            if [ "$(cat /proc/$PPID/comm 2>/dev/null)" != "uncloudnotes" ]; then exec '\(realGit)' "$@"; fi
            '\(realGit)' "$@"
            status=$?
            count=$(( $(cat "$UNCLOUDNOTES_TEST_GIT_COUNT" 2>/dev/null || echo 0) + 1 ))
            echo "$count" > "$UNCLOUDNOTES_TEST_GIT_COUNT"
            if [ "$count" -eq "$UNCLOUDNOTES_TEST_KILL_AFTER_GIT" ]; then kill -KILL "$PPID"; fi
            exit $status

            """
        let wrapper = folder.url.appendingPathComponent("git")
        try ExecutableScript.write(script, to: wrapper)
    }

    /// The environment that kills the program run with it after its `command`th git command.
    public func environment(killingAfter command: Int) -> [String: String] {
        let count = folder.url.appendingPathComponent("count-\(UUID().uuidString)")
        return ["PATH": folder.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "UNCLOUDNOTES_TEST_GIT_COUNT": count.path, "UNCLOUDNOTES_TEST_KILL_AFTER_GIT": String(command)]
    }
}
