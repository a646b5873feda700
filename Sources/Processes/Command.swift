import Foundation

/// A program to run and how: what every caller of `ProcessRunner` says about a child.
public struct Command: Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// /dev/null: a closed descriptor would be the first one the child opens.
        case nothing
        /// This process's own (an editor reads the terminal).
        case inherited
        /// A pipe the caller writes while the child runs (`git fast-import`).
        case streamed
    }

    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// /dev/null.
        case discarded
        /// This process's own (an editor draws on the terminal).
        case inherited
        /// An unlinked private file in `folder` (the temporary folder when nil), read back when
        /// the child has ended. Not a pipe: git ignores a failed write to a pipe and exits 0 with
        /// part of its answer, while a failed write to a file makes it exit non-zero.
        case captured(in: String? = nil)
        /// A file at this path, created or emptied, 0600 (the bench reads it later).
        case file(String)
    }

    /// How the child stands to the terminal and its signals. Every child starts with default
    /// signal dispositions and no signal blocked, whatever this process has.
    public enum Terminal: Sendable {
        /// In a process group of its own, so signals typed at the terminal do not reach it; this
        /// process keeps its own signal handling.
        case shared
        /// In this process's (foreground) group, which can read the terminal, as a shell runs
        /// `$EDITOR file`: while it runs this process ignores Ctrl-C and Ctrl-\, as `system(3)` does.
        case foreground
        /// In a session of its own with no terminal, and not waited for (a viewer).
        case newSession
    }

    /// The program's path: absolute, or relative to this process's working directory.
    public var executable: String
    /// The arguments after the program's name.
    public var arguments: [String]
    /// The child's whole environment; nil for this process's.
    public var environment: [String: String]?
    /// The child's working directory; nil for this process's.
    public var workingDirectory: String?
    public var input: Input
    /// Standard output.
    public var output: Output
    /// Standard error.
    public var error: Output
    public var terminal: Terminal

    /// A command with everything a caller need not say set to what most children want: no input,
    /// output and errors discarded, a process group of its own.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, workingDirectory: String? = nil,
                input: Input = .nothing, output: Output = .discarded, error: Output = .discarded, terminal: Terminal = .shared) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.input = input
        self.output = output
        self.error = error
        self.terminal = terminal
    }

    /// The first executable file called `name` in the folders of `path` (a `PATH` value), as an
    /// absolute path: a relative folder (`.`, `node_modules/.bin`) is taken from this process's
    /// working directory, as a shell would, not from the child's.
    public static func find(_ name: String, path: String?) -> String? {
        let here = FileManager.default.currentDirectoryPath
        return (path ?? "/usr/bin:/bin").split(separator: ":")
            .map { folder in folder.hasPrefix("/") ? "\(folder)/\(name)" : "\(here)/\(folder)/\(name)" }
            .first { access($0, X_OK) == 0 }
    }
}
