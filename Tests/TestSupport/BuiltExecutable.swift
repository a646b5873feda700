import Foundation

/// Runs the `uncloudnotes` binary that `swift build` put beside the test bundle.
public struct BuiltExecutable {
    public struct Result {
        /// The exit code, or the signal's number when `endedBySignal`.
        public var exitCode: Int32
        /// True when a signal ended the process (a Swift trap, a crash), not an exit.
        public var endedBySignal: Bool
        public var standardOutput: String
        public var standardError: String
    }

    public static var url: URL { product(named: "uncloudnotes") }

    /// Another program of the package built beside the tests (a test-only host, the benchmark).
    public static func product(named name: String) -> URL {
        Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Where the program's standard output or error goes.
    public enum Destination {
        /// A file, read back into the result.
        case captured
        /// A file or device written to as it is (e.g. `/dev/full`); the result holds "".
        case path(String)
        /// A pipe whose reader has gone, as after `| head -1`; the result holds "".
        case closedPipe
    }

    /// Runs the binary (or another build of it, `executable`) to completion with the given
    /// arguments and standard input (none when nil); through `launcher` (a program and its
    /// arguments, e.g. `setpriv` to run as another user) when given.
    public static func run(_ arguments: [String], environment: [String: String] = [:], standardInput: Data? = nil,
                           executable: URL = url, launcher: [String] = [], standardOutput: Destination = .captured,
                           standardError: Destination = .captured) throws -> Result {
        // Files rather than pipes: a child writing much to both streams can never stall on a full pipe.
        let folder = try TemporaryFolder()
        let outputURL = folder.url.appendingPathComponent("stdout")
        let errorURL = folder.url.appendingPathComponent("stderr")
        var inputPath = "/dev/null"
        if let standardInput {
            inputPath = folder.url.appendingPathComponent("stdin").path
            try standardInput.write(to: URL(fileURLWithPath: inputPath))
        }
        // One pipe, its read end closed at once, serves every stream sent to a closed pipe.
        var pipeEnds: [Int32] = [-1, -1]
        let needsPipe = [standardOutput, standardError].contains { if case .closedPipe = $0 { true } else { false } }
        if needsPipe {
            guard pipe(&pipeEnds) == 0 else { throw SpawnedProcess.SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
            close(pipeEnds[0])
            // Only the child's copy, made by dup2, survives exec: others' children get none.
            _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        }
        defer { if needsPipe { close(pipeEnds[1]) } }
        func path(_ destination: Destination, captured: URL) -> String {
            if case .path(let path) = destination { return path }
            return captured.path
        }
        var descriptors: [Int32: Int32] = [:]
        if case .closedPipe = standardOutput { descriptors[1] = pipeEnds[1] }
        if case .closedPipe = standardError { descriptors[2] = pipeEnds[1] }
        let status = try SpawnedProcess.run(launcher + [executable.path] + arguments,
                                            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                            standardInput: inputPath, standardOutput: path(standardOutput, captured: outputURL),
                                            standardError: path(standardError, captured: errorURL), descriptors: descriptors)
        func read(_ destination: Destination, _ url: URL) throws -> String {
            guard case .captured = destination else { return "" }
            return try String(contentsOf: url, encoding: .utf8)
        }
        return Result(exitCode: status.code, endedBySignal: status.endedBySignal,
                      standardOutput: try read(standardOutput, outputURL), standardError: try read(standardError, errorURL))
    }
}

extension BuiltExecutable {
    /// A running `uncloudnotes`, whose standard output (or, with `readingStandardError`, its
    /// standard error) is read line by line as it comes.
    public final class Running {
        public let process = Process()
        private let output = Pipe()
        private var buffer = Data()

        public init(_ arguments: [String], readingStandardError: Bool = false) throws {
            process.executableURL = BuiltExecutable.url
            process.arguments = arguments
            process.standardOutput = readingStandardError ? FileHandle.nullDevice : output
            process.standardError = readingStandardError ? output : FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        /// The next line of output, nil once the process has closed its output.
        public func nextLine() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    return line
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }

        /// Kills the process with SIGKILL (as a crash or power loss would stop it) and waits.
        public func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// Reads all output and waits for the exit status.
        public func finish() -> (status: Int32, lines: [String]) {
            var lines: [String] = []
            while let line = nextLine() { lines.append(line) }
            process.waitUntilExit()
            return (process.terminationStatus, lines)
        }
    }
}
