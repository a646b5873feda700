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
        // A server of its own each time: a server told to end may still be ending when the next
        // measure starts, and a client reaching it then fails.
        let socket = "uncloudnotes-bench-\(getpid())-\(UUID().uuidString.prefix(8))"
        try tmux(socket, ["new-session", "-d", "-x", "80", "-y", "24", "sleep 600"])
        defer {
            // The program is asked to quit as a user would (q), then the server goes with its
            // panes. Failing either leaves at most a pane behind, which the server's end closes.
            _ = try? tmux(socket, ["send-keys", "q"])
            _ = try? tmux(socket, ["kill-server"])
        }
        let start = DispatchTime.now()
        try tmux(socket, ["respawn-pane", "-k", command])
        while seconds(since: start) < 30 {
            if try tmux(socket, ["capture-pane", "-p"]).contains(marker) { return seconds(since: start) }
        }
        throw BenchError("\(command) showed no \"\(marker)\" in a tmux pane within 30 s")
    }

    /// Runs tmux on its own server; returns what it printed. Output and errors go through files:
    /// the server that `new-session` starts keeps both open, so a pipe would never end.
    @discardableResult
    private static func tmux(_ socket: String, _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tmux-\(getpid())")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("bench-tmux-\(getpid())-errors")
        // Removing temporary files is best effort.
        defer { [output, errors].forEach { try? FileManager.default.removeItem(at: $0) } }
        do {
            try ChildProcess.run("/usr/bin/env", ["tmux", "-L", socket] + arguments, standardOutput: output.path, standardError: errors.path)
        } catch {
            // What tmux said is the better message; without it, the failure as it is.
            let said = (try? String(contentsOf: errors, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            throw said.isEmpty ? error : BenchError("tmux \(arguments.joined(separator: " ")): \(said)")
        }
        // An unreadable capture shows no marker: the caller polls again, and gives up after its limit.
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
