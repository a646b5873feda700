import CTerminal
import Foundation
import Processes
import UnCloudNotesKit

/// Asks the terminal what it can draw, before ncurses starts: the kitty graphics query, the cell
/// size (`CSI 16 t`) and primary device attributes last, which every terminal answers, so its
/// reply ends the wait. A terminal that answers nothing costs the timeout, never more.
public enum TerminalQueries {
    /// The questions, in the order their answers arrive.
    public static let questions = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[16t" + "\u{1B}[c"

    /// Sends the questions on stdout and reads the answers on stdin, in raw mode for the while;
    /// nil when nothing complete came back within `timeoutMilliseconds`.
    public static func ask(timeoutMilliseconds: Int = 250) -> TerminalReplies? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        cfmakeraw(&raw)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        let question = Array(questions.utf8)
        guard question.withUnsafeBytes({ write(STDOUT_FILENO, $0.baseAddress, $0.count) }) == question.count else { return nil }
        var received: [UInt8] = []
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            var waiting = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Int32((deadline - now) / 1_000_000) + 1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 512)
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            received += chunk[0..<count]
            let replies = TerminalReplies(parsing: received)
            if replies.isComplete { return replies }
        }
    }

    /// The cell size from the kernel's window size (`TIOCGWINSZ`), when the terminal fills in
    /// its pixels (many do; a pty made by a program often does not).
    public static func windowCellPixels() -> PixelSize? {
        var columns: Int32 = 0, rows: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        guard cterminal_window_size(STDOUT_FILENO, &columns, &rows, &width, &height) == 0,
              columns > 0, rows > 0, width > 0, height > 0 else { return nil }
        return PixelSize(width: Int(width / columns), height: Int(height / rows))
    }

    /// tmux's answers for the app's pane; nil when tmux cannot be asked.
    public static func tmuxFacts(environment: [String: String]) -> TmuxFacts? {
        guard let tmux = Command.find("tmux", path: environment["PATH"]) else { return nil }
        var arguments = ["display-message", "-p"]
        if let pane = environment["TMUX_PANE"], !pane.isEmpty { arguments += ["-t", pane] }
        let outcome: ProcessRunner.Outcome
        do {
            outcome = try ProcessRunner.run(Command(tmux, arguments + [TmuxFacts.format], environment: environment, output: .captured()))
        } catch {
            // tmux that cannot be asked (or no writable temporary folder for its answer, which
            // the runner keeps in a file) leaves the decision to the other facts.
            return nil
        }
        guard outcome.termination == .exited(0) else { return nil }
        return TmuxFacts(displayed: String(decoding: outcome.output, as: UTF8.self))
    }

    /// Detection as the app runs it: the queries (only when needed), then `GraphicsDetection`.
    public static func detect(_ mode: ImageMode, environment: [String: String]) -> GraphicsDetection.Decision {
        let asked = GraphicsDetection.needsQueries(mode, environment: environment)
        let replies = asked ? ask() : nil
        let tmux = GraphicsDetection.isInsideTmux(environment) && mode != .none && mode != .symbols ? tmuxFacts(environment: environment) : nil
        var decision = GraphicsDetection.decide(mode, environment: environment, replies: replies, windowCellPixels: windowCellPixels(), tmux: tmux)
        decision.awaitsLateReplies = asked && replies == nil
        return decision
    }
}
