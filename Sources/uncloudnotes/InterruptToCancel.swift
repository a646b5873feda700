import Foundation
import ManagedStore
import UnCloudNotesKit

/// Ctrl-C (SIGINT) during `store migrate`: at a terminal it asks "Cancel the upgrade? y/n" (one
/// key, no Enter; a second Ctrl-C means yes), and the migration waits at its next event while the
/// question is open, so it cannot finish behind the user's back; without a terminal on stdin it
/// cancels at once. Cancelling goes through the engine's `MigrationCancellation`, which leaves the
/// store as it was.
///
/// Unchecked: `asking` and `savedTerminal` are touched only with `condition` locked; the rest is
/// set in `init` and never changed.
final class InterruptToCancel: @unchecked Sendable {
    let cancellation = MigrationCancellation()
    private let asksFirst: Bool
    /// The handler's pipe: the signal handler writes a byte, a thread of this class reads it.
    private let wake: (read: Int32, write: Int32)
    /// Guards `asking` and `savedTerminal`; the migration waits on it while the question is open.
    private let condition = NSCondition()
    private var asking = false
    /// The terminal's settings before the question changed them, restored after the answer.
    private var savedTerminal: termios?

    /// Takes SIGINT over until `stop()`. The handler restarts interrupted system calls
    /// (`SA_RESTART`): a Ctrl-C must never turn the migration's own file operations into I/O errors.
    init() {
        asksFirst = isatty(STDIN_FILENO) == 1
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        wake = (ends[0], ends[1])
        interruptWakeDescriptor = wake.write
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(interruptWakeDescriptor, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        let listener = Thread { [self] in
            var byte: UInt8 = 0
            while read(wake.read, &byte, 1) == 1 { interrupted() }
            close(wake.read)
        }
        listener.start()
    }

    /// The migration's observer calls this first: while the question is open, it waits for the answer.
    func waitWhileAsking() {
        condition.lock()
        while asking { condition.wait() }
        condition.unlock()
    }

    /// Gives SIGINT back its default action. A question still open (the migration finished while
    /// it was asked) is closed and the terminal restored: it is too late to cancel.
    func stop() {
        signal(SIGINT, SIG_DFL)
        // The listener reads the end of the pipe and ends.
        close(wake.write)
        condition.lock()
        defer { condition.unlock() }
        guard asking else { return }
        restoreTerminal()
        StandardError.write("\ntoo late to cancel: the upgrade had finished\n")
    }

    private func interrupted() {
        guard asksFirst else {
            StandardError.write("\ncancelling the upgrade…\n")
            cancellation.cancel()
            return
        }
        condition.lock()
        asking = true
        savedTerminal = Self.readOneKeyMode()
        condition.unlock()
        StandardError.write("\n\(UpgradeCancelQuestion.text) ")
        var byte: UInt8 = 0
        let answered = read(STDIN_FILENO, &byte, 1) == 1
        // Ctrl-C typed while asking arrives as a character (0x03), as the question's rule expects.
        let cancel = answered && UpgradeCancelQuestion.cancels(Character(Unicode.Scalar(byte)))
        condition.lock()
        defer { condition.unlock() }
        // stop() closed the question meanwhile: the upgrade is over.
        guard asking else { return }
        // Cancelled before the migration is let go, so its next check sees it.
        if cancel { cancellation.cancel() }
        restoreTerminal()
        StandardError.write((cancel ? "yes: cancelling the upgrade…\n" : "no: the upgrade goes on\n"))
    }

    /// One key at a time, not echoed, and Ctrl-C as a character: the question's answer.
    private static func readOneKeyMode() -> termios? {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        return settings
    }

    /// Closes the question: the terminal as it was, the migration let go. Called with `condition` locked.
    private func restoreTerminal() {
        if var saved = savedTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        savedTerminal = nil
        asking = false
        condition.broadcast()
    }
}

/// Where the SIGINT handler writes: a signal handler can reach no object, only a global, and
/// only async-signal-safe calls (`write`). Unsafe but safe here: set once in `init`, before the
/// handler that reads it is installed, and never changed after.
nonisolated(unsafe) private var interruptWakeDescriptor: Int32 = -1
