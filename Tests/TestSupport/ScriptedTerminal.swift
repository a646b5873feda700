import Foundation

/// A pseudo-terminal the test plays the terminal of: the program runs on its other side, and the
/// test keeps every byte it writes, answers its queries as a given terminal would, and types keys.
public final class ScriptedTerminal {
    /// A reply the terminal sends each time the program writes `question`.
    public struct Answer: Sendable {
        public let question: String
        public let reply: String

        public init(_ question: String, _ reply: String) {
            self.question = question
            self.reply = reply
        }
    }

    /// TIOCSPTLCK and TIOCGPTN, macros Swift cannot import (their values on x86-64 and arm64 Linux).
    private static let unlockRequest: UInt = 0x4004_5431
    private static let numberRequest: UInt = 0x8004_5430

    /// Everything the program wrote so far.
    public private(set) var output: [UInt8] = []
    private let master: Int32
    private let pid: pid_t
    private let answers: [Answer]
    /// Questions are looked for from here on: earlier bytes were searched already.
    private var searchedUpTo = 0
    private var exitStatus: Int32?

    /// Starts `argv` on a new pseudo-terminal of `columns` x `rows` cells, each `cellPixels` in size.
    public init(_ argv: [String], environment: [String: String], columns: Int = 100, rows: Int = 30,
                cellPixels: (width: Int, height: Int) = (10, 20), answers: [Answer]) throws {
        self.answers = answers
        // posix_openpt and ptsname are not in Swift's Glibc module: the same through /dev/ptmx.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            throw SpawnedProcess.SpawnError(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let slavePath = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: UInt16(columns * cellPixels.width),
                           ws_ypixel: UInt16(rows * cellPixels.height))
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // A session of its own, so the pseudo-terminal opened first becomes its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        do {
            pid = try SpawnedProcess.start(argv, actions: &actions, environment: environment, newSession: true)
        } catch {
            close(master)
            throw error
        }
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Types keys, as bytes the terminal sends.
    public func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads (answering queries) until what the program wrote satisfies `condition`; throws with
    /// `what` after `timeout` seconds or when the program ends first.
    public func read(until what: String, timeout: TimeInterval = 20, _ condition: ([UInt8]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(output) {
            guard Date() < deadline else {
                throw SpawnedProcess.SpawnError(description: "timed out waiting for \(what); the program's last output: \(String(decoding: output.suffix(600), as: UTF8.self).debugDescription)")
            }
            guard var count = readSome(waitingMilliseconds: 100) else {
                throw SpawnedProcess.SpawnError(description: "the program ended before \(what)")
            }
            // Everything already written is taken before `condition` looks again: a picture comes
            // in hundreds of chunks, and looking through the whole output after each one cost
            // more than the program's writing on a busy machine (the wait then timed out).
            while count > 0, Date() < deadline, let more = readSome(waitingMilliseconds: 0) { count = more }
        }
    }

    /// Reads until the program exits; its exit code.
    public func waitForExit(timeout: TimeInterval = 20) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while readSome(waitingMilliseconds: 100) != nil {
            guard Date() < deadline else { throw SpawnedProcess.SpawnError(description: "timed out waiting for the program to exit") }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = (status >> 8) & 0xff
        return exitStatus ?? -1
    }

    /// Takes what the program wrote within the wait: how many bytes (0 when nothing came), nil once
    /// it closed the terminal.
    private func readSome(waitingMilliseconds: Int32) -> Int? {
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, waitingMilliseconds) > 0 else { return 0 }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Foundation.read(master, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        output += chunk[0..<count]
        answerQueries()
        return count
    }

    private func answerQueries() {
        var next = searchedUpTo
        for answer in answers {
            let question = Array(answer.question.utf8)
            var start = searchedUpTo
            while let found = Self.find(question, in: output, from: start) {
                type(answer.reply)
                start = found + question.count
                next = max(next, start)
            }
        }
        // A question cut by the end of what arrived is found whole next time.
        let longest = answers.map(\.question.utf8.count).max() ?? 1
        searchedUpTo = max(next, output.count - longest + 1)
    }

    /// Where `needle` occurs in `haystack` from `start`.
    public static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = max(0, start)
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
