import Foundation
import Testing
import TestSupport

/// What the command line says about a mistake in it: what is wrong with a number, usage errors
/// with the usage of the command that was run, exit code 2; and --version and help that read
/// well at 80 columns.
@Suite("usage errors, --version and help")
struct CommandLineUsageTests {
    private static let countedNumber = "it must be a positive whole number (numbers count from 1)"

    @Test("a bad number says what is wrong with it, exit 2", arguments: [
        (["notes", "show", "-1"], "The value '-1' is invalid for '<note>': \(countedNumber)"),
        (["notes", "delete", "0"], "The value '0' is invalid for '<note>': \(countedNumber)"),
        (["notes", "edit", "abc"], "The value 'abc' is invalid for '<note>': it must be a whole number, written in digits, or the start of a note's identifier (at least 4 hex digits)"),
        (["notes", "show", "99999999999999999999"], "The value '99999999999999999999' is invalid for '<note>': the number is too large"),
        (["notes", "caption", "1", "0", "x"], "The value '0' is invalid for '<image>': \(countedNumber)"),
        (["notes", "list", "--limit", "-1"], "The value '-1' is invalid for '--limit <limit>': it must be a whole number, 0 or more"),
        (["notes", "list", "--offset", "-3"], "The value '-3' is invalid for '--offset <offset>': it must be a whole number, 0 or more"),
        (["walkthrough", "--step", "-1"], "--step must be 1 to 6"),
    ])
    func badNumbers(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try BuiltExecutable.run(["--store", folder.url.appendingPathComponent("n.sqlite").path] + arguments)
        #expect(result.exitCode == 2)
        #expect(result.standardError.hasPrefix("Error: \(message)\n"), "\(result.standardError)")
        let command = arguments.prefix(arguments[0] == "notes" ? 2 : 1).joined(separator: " ")
        #expect(result.standardError.contains("Usage: uncloudnotes \(command) "))
    }

    @Test("an unknown --model-version is a usage error (exit 2) with the usage of the command run")
    func unknownModelVersion() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite").path
        for arguments in [["notes", "list"], ["store", "info"], ["store", "migrate", "--to", "v9"]] {
            let modelVersion = arguments.contains("--to") ? [] : ["--model-version", "v9"]
            let result = try BuiltExecutable.run(["--store", store] + modelVersion + arguments)
            #expect(result.exitCode == 2, "\(arguments)")
            #expect(result.standardError.hasPrefix("Error: unknown model version \"v9\" of UnCloudNotesDataModel: use v1 to v5"))
            #expect(result.standardError.contains("See 'uncloudnotes \(arguments[0]) \(arguments[1]) --help'"), "\(result.standardError)")
        }
    }

    @Test("--version prints the program's name and version")
    func version() throws {
        let result = try BuiltExecutable.run(["--version"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.wholeMatch(of: /uncloudnotes \d+\.\d+\.\d+\n/) != nil, "\(result.standardOutput)")
    }

    /// Every command's name path, found through the help screens' SUBCOMMANDS sections.
    private func allCommands(under path: [String] = []) throws -> [[String]] {
        let help = try BuiltExecutable.run(path + ["--help"]).standardOutput
        guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { return [path] }
        let names = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first else { return nil }
            return String(name)
        }.filter { $0 != "See" }
        return try [path] + names.flatMap { try allCommands(under: path + [$0]) }
    }

    @Test("help reads well at 80 columns: no line wider (the usage line aside), no example broken onto a line of its own")
    func helpAt80Columns() throws {
        let commands = try allCommands()
        #expect(commands.count > 15 && commands.contains(["store", "migrate"]))
        for command in commands {
            let help = try BuiltExecutable.run(command + ["--help"], environment: ["COLUMNS": "80"]).standardOutput
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
            for line in lines where !line.hasPrefix("USAGE: ") {
                #expect(line.count <= 80, "\(command): \(line)")
            }
            // An indented line (an example, an option) is never followed by a flush-left
            // fragment of it: the wrap without indent that left "hashes" alone on a line.
            for (previous, line) in zip(lines, lines.dropFirst()) where previous.hasPrefix("  ") && !line.isEmpty {
                #expect(line.hasPrefix(" "), "\(command): \"\(previous)\" then \"\(line)\"")
            }
        }
    }

    @Test("sample open --store puts the working copy there, not in the data folder; --dir with --store is refused")
    func sampleOpenStore() throws {
        let folder = try TemporaryFolder()
        let copy = folder.url.appendingPathComponent("mine/v2-copy.sqlite")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = folder.url.appendingPathComponent("data")
        // No terminal here: the app itself refuses to start (exit 2), after the copy is made.
        let result = try BuiltExecutable.run(["--store", copy.path, "sample", "open", "v2"], environment: ["XDG_DATA_HOME": data.path, "TERM": "dumb"])
        #expect(result.exitCode == 2, "\(result.standardError)")
        #expect(result.standardError.contains("copied the v2 sample to \(copy.path)"))
        #expect(try BuiltExecutable.run(["store", "info", copy.path]).standardOutput.contains("version: UnCloudNotesDataModel v2 (v2)"))
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("uncloudnotes/samples").path))
        let both = try BuiltExecutable.run(["--store", copy.path, "sample", "open", "v2", "--dir", folder.url.path])
        #expect(both.exitCode == 2 && both.standardError.contains("give one of them"))
    }

    @Test("notes import - and notes import /dev/stdin read a pipe")
    func importFromPipe() throws {
        let folder = try TemporaryFolder()
        let source = try ProjectFixtures.copyStore("v3", into: folder, as: "source.sqlite")
        let export = folder.url.appendingPathComponent("notes.json")
        #expect(try BuiltExecutable.run(["--store", source.path, "notes", "export", "--output", export.path]).exitCode == 0)
        for (index, name) in ["-", "/dev/stdin"].enumerated() {
            let target = folder.url.appendingPathComponent("target-\(index).sqlite")
            // `cat FILE | uncloudnotes …`: standard input is a real pipe, whose size is unknown.
            let result = try BuiltExecutable.run(["--store", target.path, "notes", "import", name],
                                                 launcher: ["sh", "-c", "cat \"$0\" | \"$@\"", export.path])
            #expect(result.exitCode == 0, "\(name): \(result.standardError)")
            #expect(result.standardOutput == "imported 4 notes\n", "\(name)")
        }
    }

    @Test("a missing file and a folder are named for what they are", arguments: ["import", "add"])
    func unreadableFiles(command: String) throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite").path
        let missing = folder.url.appendingPathComponent("none.json").path
        let arguments = { (path: String) in
            command == "import" ? ["notes", "import", path] : ["notes", "add", "--title", "t", "--body", "", "--image", path]
        }
        let gone = try BuiltExecutable.run(["--store", store] + arguments(missing))
        #expect(gone.exitCode == 1 && gone.standardError == "uncloudnotes: \(missing): no such file\n")
        let isFolder = try BuiltExecutable.run(["--store", store] + arguments(folder.url.path))
        #expect(isFolder.exitCode == 1 && isFolder.standardError == "uncloudnotes: \(folder.url.path): this is a folder, not a file\n")
    }
}
