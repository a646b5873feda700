import Foundation

/// Runs the `uncloudnotes` binary that `swift build` put beside the test bundle.
public struct BuiltExecutable {
    public struct Result {
        public var exitCode: Int32
        public var standardOutput: String
        public var standardError: String
    }

    public static var url: URL {
        let productsFolder = Bundle.main.executableURL!.deletingLastPathComponent()
        return productsFolder.appendingPathComponent("uncloudnotes")
    }

    /// Runs the binary to completion with the given arguments and no standard input.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Files rather than pipes: a child writing much to both streams can never stall on a full pipe.
        let folder = try TemporaryFolder()
        let outputURL = folder.url.appendingPathComponent("stdout")
        let errorURL = folder.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Result(exitCode: process.terminationStatus,
                      standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
                      standardError: try String(contentsOf: errorURL, encoding: .utf8))
    }
}
