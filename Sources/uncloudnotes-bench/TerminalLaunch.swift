import Foundation

/// Launch as a user sees it (the issue's method): the real binary started in a detached 80x24
/// tmux pane, timed until the pane shows the list's status line (drawn in the same refresh as
/// the list's rows), polling the pane. The floor is the same measure of a shell printing one
/// line: what starting a program in a pane and seeing its output costs by this method.
enum TerminalLaunch {
    static func app(_ app: URL, store: URL, notes: Int) throws -> Double {
        try measure(command: "\(quoted(app.path)) --store \(quoted(store.path))", marker: "\(notes) notes")
    }

    static func floor() throws -> Double {
        try measure(command: "sh -c 'echo READY; exec sleep 600'", marker: "READY")
    }

    private static func measure(command: String, marker: String) throws -> Double {
        let socket = "uncloudnotes-bench-\(getpid())"
        try tmux(socket, ["new-session", "-d", "-x", "80", "-y", "24", "sleep 600"])
        // The server goes with its panes; failing to stop it leaves only a sleeping pane behind.
        defer { _ = try? tmux(socket, ["kill-server"]) }
        let start = DispatchTime.now()
        try tmux(socket, ["respawn-pane", "-k", command])
        while seconds(since: start) < 30 {
            if try tmux(socket, ["capture-pane", "-p"]).contains(marker) { return seconds(since: start) }
        }
        throw BenchError("\(command) showed no \"\(marker)\" in a tmux pane within 30 s")
    }

    /// Runs tmux on its own server; returns what it printed (through a file: the server that
    /// `new-session` starts keeps its standard output open, so a pipe would never end).
    @discardableResult
    private static func tmux(_ socket: String, _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tmux-\(getpid())")
        // Removing a temporary file is best effort.
        defer { try? FileManager.default.removeItem(at: output) }
        try ChildProcess.run("/usr/bin/env", ["tmux", "-L", socket] + arguments, standardOutput: output.path)
        // An unreadable capture shows no marker: the caller polls again, and gives up after its limit.
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
