import Foundation
import Subprocess
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The one way this program starts other programs (git, the editor, the image viewer, tic, tmux,
/// the bench's children), on swift-subprocess, for synchronous callers: each call starts the
/// child through a run on `RunnerThread`, then waits for its end on the caller's own thread.
/// Nothing here kills a child, and every child is reaped.
public enum ProcessRunner {
    /// A child that ended: how, and what it wrote to its captured streams.
    public struct Outcome: Sendable {
        public var termination: Termination
        /// What it wrote to a `.captured` standard output (empty otherwise).
        public var output: Data
        /// What it wrote to a `.captured` standard error (empty otherwise).
        public var error: Data
    }

    /// Runs `command` to its end.
    @discardableResult
    public static func run(_ command: Command) throws(ProcessFailure) -> Outcome {
        try run(command) { _ in }
    }

    /// Runs `command` to its end, `feed` writing its standard input (`.streamed`) on this thread
    /// while it runs; the input is closed when `feed` returns.
    public static func run(_ command: Command, feeding feed: (ChildInput) -> Void) throws(ProcessFailure) -> Outcome {
        let streams = try ChildStreams(command)
        let signals = command.terminal == .foreground ? ForegroundSignals.ignoringInterrupts() : nil
        defer { signals?.restore() }
        let handoff = Handoff()
        let pid = try launch(command, streams, handoff, waited: true)
        defer { handoff.releaseRun() }
        streams.closeChildInput()
        if let writer = streams.inputWriter {
            let input = ChildInput(writer)
            feed(input)
            input.flush()
            input.close()
            streams.closeInputWriter()
        }
        let termination = try Termination.awaited(pid, executable: command.executable)
        let captured = try streams.captured(executable: command.executable)
        return Outcome(termination: termination, output: captured.output, error: captured.error)
    }

    /// Starts `command` and returns once it runs, without waiting for its end (it is reaped
    /// when it ends): for `.newSession` children such as a viewer.
    public static func start(_ command: Command) throws(ProcessFailure) {
        let streams = try ChildStreams(command)
        _ = try launch(command, streams, Handoff(), waited: false)
    }

    /// Starts the child through swift-subprocess on `RunnerThread`; its process id once it runs.
    /// A waited run holds swift-subprocess's run open (so it cannot reap the child) until the
    /// caller releases `handoff`.
    private static func launch(_ command: Command, _ streams: ChildStreams, _ handoff: Handoff,
                               waited: Bool) throws(ProcessFailure) -> pid_t {
        let configuration = configuration(of: command)
        let input = FileDescriptor(rawValue: streams.input)
        let output = FileDescriptor(rawValue: streams.output)
        let error = FileDescriptor(rawValue: streams.error)
        Task(executorPreference: RunnerThread.shared) {
            do {
                _ = try await Subprocess.run(configuration, input: .fileDescriptor(input, closeAfterSpawningProcess: false),
                                             output: .fileDescriptor(output, closeAfterSpawningProcess: false),
                                             error: .fileDescriptor(error, closeAfterSpawningProcess: false)) { execution in
                    handoff.started(execution.processIdentifier.value)
                    if waited { await handoff.untilReleased() }
                }
            } catch {
                handoff.failed(error)
            }
        }
        switch handoff.waitForStart() {
        case .success(let pid): return pid
        case .failure(let cause): throw .cannotStart(executable: command.executable, cause: cause)
        }
    }

    private static func configuration(of command: Command) -> Configuration {
        var options = PlatformOptions()
        options.createSession = command.terminal == .newSession
        // A shared child gets a process group of its own, as Foundation's Process gave it: Ctrl-C
        // or Ctrl-\ typed while the editor runs (or at a shell running `uncloudnotes sync`)
        // reaches the terminal's foreground group, and must not kill a git mid-commit.
        if command.terminal == .shared { options.processGroupID = 0 }
        let environment: Environment = command.environment.map { variables in
            .custom(Dictionary(uniqueKeysWithValues: variables.compactMap { name, value in
                Environment.Key(rawValue: name).map { ($0, value) }
            }))
        } ?? .inherit
        return Configuration(executable: .path(FilePath(command.executable)), arguments: Arguments(command.arguments),
                             environment: environment, workingDirectory: command.workingDirectory.map { FilePath($0) },
                             platformOptions: options)
    }
}
