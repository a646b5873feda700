import Foundation

/// Drives a real program in tmux, as a person at a terminal would: type keys, read the screen.
/// Each session runs on its own tmux server socket and is killed when released, or, if this
/// process dies first, by a watchdog in the session.
public final class TmuxSession {
    public let name: String
    private let socket: String

    /// Starts `command` (run by `sh -c`) in a detached session of the given size.
    public init(command: String, width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        name = "uncloudnotes-\(UUID().uuidString.prefix(8))"
        socket = name
        var arguments = ["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height)]
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["-e", "\(key)=\(value)"] }
        arguments.append(command)
        try tmux(arguments)
        // A test process that crashes or is killed never runs deinit, and its server (and the
        // program in it) would live on: a watchdog window ends the server once this process is gone.
        try tmux(["new-window", "-d", "-t", name, "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; tmux kill-server"])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// The screen's text now (of the program's window, not the watchdog's); with `styles`, each
    /// cell's colours and attributes as the escape sequences that set them.
    public func screen(styles: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (styles ? ["-e"] : []) + ["-t", "\(name):^"])
    }

    /// Waits until the screen shows `text` (polling what tmux shows; the program runs on its own),
    /// and returns the screen. Throws, with the last screen, after `timeout` seconds.
    @discardableResult
    public func waitFor(_ text: String, timeout: TimeInterval = 15) throws -> String {
        try waitUntil("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the screen satisfies `condition` (described as `what` in the timeout's error),
    /// and returns the screen once it has settled: a program's refresh can reach tmux in more
    /// than one write, so a capture may hold half of it. The screen returned is one that two
    /// captures in a row agree on (or, on a screen that keeps changing, such as a progress
    /// bar, the last of a second's captures that still satisfies the condition).
    @discardableResult
    public func waitUntil(_ what: String, styles: Bool = false, timeout: TimeInterval = 15,
                          _ condition: (String) throws -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen(styles: styles)
            if try condition(last) { return try settled(last, styles: styles, condition) }
            usleep(50_000)
        }
        throw TmuxError(description: "timed out waiting for \(what); the screen shows:\n\(last)")
    }

    private func settled(_ first: String, styles: Bool, _ condition: (String) throws -> Bool) throws -> String {
        var last = first
        for _ in 0..<20 {
            usleep(50_000)
            let next = try screen(styles: styles)
            if next == last { return last }
            if try condition(next) { last = next }
        }
        return last
    }

    /// Types text literally.
    public func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// Presses named keys: Enter, Escape, Tab, Up, Down, End, C-s, …
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// In vim, as a person would: replaces the whole buffer with `text`, writes and quits.
    public func replaceVimBuffer(with text: String) throws {
        try type("ggdG")
        try type("i" + text)
        try press("Escape")
        try type(":wq")
        try press("Enter")
    }

    /// Resizes the window, as a person dragging the terminal's corner would.
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// Closes the program's window as closing a terminal does: tmux drops its side of the
    /// pseudo-terminal, so the kernel sends SIGHUP to every process of the window's session.
    public func closeProgramWindow() throws {
        try tmux(["kill-window", "-t", "\(name):^"])
    }

    /// The processes the program window's shell started (`sh -c` runs the command as its child).
    public func programProcesses() throws -> [pid_t] {
        let shell = try tmux(["list-panes", "-t", "\(name):^", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children.split(separator: " ").compactMap { pid_t($0) }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        // SpawnedProcess, not Foundation's Process: the tmux server that new-session starts lives
        // on after the client exits, and it must start with no signals blocked (see SpawnedProcess).
        let folder = try TemporaryFolder()
        let outputPath = folder.url.appendingPathComponent("out").path
        let status: SpawnedProcess.Status
        do {
            status = try SpawnedProcess.run(["tmux", "-L", socket] + arguments, standardOutput: outputPath)
        } catch {
            throw TmuxError(description: "cannot run tmux (is it installed? make test installs it)")
        }
        let data = (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data()
        let exitedCleanly = !status.endedBySignal && status.code == 0
        guard exitedCleanly || arguments.first == "kill-server" else {
            throw TmuxError(description: "tmux \(arguments.joined(separator: " ")) failed (is tmux installed? make test installs it)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    public struct TmuxError: Error, CustomStringConvertible {
        public let description: String
    }
}
