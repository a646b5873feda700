import Foundation
import Testing
import TestSupport

/// Output that does not arrive is never a success: `> /dev/full` (a full disk) exits 1 with one
/// line, a reader that goes away (`| head -1`) ends the program quietly, as git does, and a
/// failed write to stderr ends in the exit code, never a trap.
@Suite("every command checks that its output was written")
struct OutputFailureTests {
    /// A store with one note holding an image, so every command has something to print.
    private static func store(in folder: TemporaryFolder) throws -> URL {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 8, height: 8)
        let added = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Kept", "--body", "text", "--image", image.path])
        #expect(added.exitCode == 0, "\(added.standardError)")
        return store
    }

    /// Every command that prints, on that store.
    static let printingCommands: [[String]] = [
        ["notes", "list"], ["notes", "list", "--json"], ["notes", "show", "1"], ["notes", "show", "1", "--json"],
        ["notes", "export"], ["store", "export"], ["store", "export", "--json"], ["store", "info"],
        ["store", "info", "--json"], ["model", "show"], ["notes", "edit", "1", "--title", "Renamed"],
        ["notes", "caption", "1", "1", "Caption"], ["notes", "add", "--title", "More", "--body", "text"], ["notes", "delete", "1"],
        ["--help"], ["notes", "list", "--help"], ["--version"], ["--generate-completion-script", "bash"],
    ]

    @Test("> /dev/full: exit 1 and one line saying why", arguments: printingCommands)
    func fullDevice(command: [String]) throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(in: folder)
        let result = try BuiltExecutable.run(["--store", store.path] + command, standardOutput: .path("/dev/full"))
        #expect(!result.endedBySignal && result.exitCode == 1, "\(result.exitCode) \(result.standardError)")
        #expect(result.standardError == "uncloudnotes: cannot write to standard output: No space left on device\n")
    }

    @Test("a reader that went away ends the program quietly by SIGPIPE, also when SIGPIPE is ignored",
          arguments: printingCommands, [false, true])
    func closedPipe(command: [String], ignoringSIGPIPE: Bool) throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(in: folder)
        // `env --ignore-signal` starts the program with SIGPIPE ignored, as some parents do: the
        // failed write (EPIPE) must then end it the same way.
        let result = try BuiltExecutable.run(["--store", store.path] + command, launcher: ignoringSIGPIPE ? ["env", "--ignore-signal=PIPE"] : [],
                                             standardOutput: .closedPipe)
        #expect(result.endedBySignal && result.exitCode == SIGPIPE, "\(result.exitCode) \(result.standardError)")
        #expect(result.standardError.isEmpty)
    }

    @Test("a command whose output fails still finishes its work: store migrate > /dev/full upgrades the store, then exits 1")
    func migrationFinishes() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v1", into: folder)
        let result = try BuiltExecutable.run(["store", "migrate", url.path], standardOutput: .path("/dev/full"))
        #expect(!result.endedBySignal && result.exitCode == 1)
        #expect(result.standardError == "uncloudnotes: cannot write to standard output: No space left on device\n")
        #expect(try BuiltExecutable.run(["store", "info", url.path]).standardOutput.contains("migration: not needed"))
    }

    @Test("2> /dev/full or a closed stderr: the error's exit code, no trap", arguments: [false, true])
    func failedStandardError(closedPipe: Bool) throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(in: folder)
        let result = try BuiltExecutable.run(["--store", store.path, "notes", "show", "42"], launcher: ["env", "--ignore-signal=PIPE"],
                                             standardError: closedPipe ? .closedPipe : .path("/dev/full"))
        #expect(!result.endedBySignal && result.exitCode == 1, "\(result.exitCode)")
    }

    @Test("a notice on a full stderr (bytes that are not UTF-8 in a piped body) does not stop the command")
    func noticeOnFullStandardError() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let result = try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "x"], standardInput: Data([0x61, 0xFF, 0x62]),
                                             standardError: .path("/dev/full"))
        #expect(!result.endedBySignal && result.exitCode == 0, "\(result.exitCode)")
    }
}
