import Foundation
import Testing
import TestSupport

/// `make install`: the program installed with its resources runs from anywhere, with shell
/// completions and a man page generated from the command definitions. Building in release mode
/// inside a test is too slow, so the test installs the debug build through the same script, and
/// checks that the make target builds release and calls that script.
@Suite("make install", .serialized)
struct InstallTests {
    private func run(_ executable: String, _ arguments: [String], in folder: URL? = nil,
                     environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (status: Int32, output: String) {
        let scratch = try TemporaryFolder()
        let outputURL = scratch.url.appendingPathComponent("output")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let folder { process.currentDirectoryURL = folder }
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: outputURL, encoding: .utf8))
    }

    private static let script = SharedFixtures.packageRoot.appendingPathComponent("scripts/install.sh").path

    /// swift-argument-parser's generate-manual, built by `make manual-tool` as `make install` builds
    /// it, but in the debug configuration of the tests: beside the built program, in seconds.
    private func manualTool() throws -> String {
        let built = try run("/usr/bin/make", ["-s", "manual-tool", "BUILD_CONFIG=debug", "STATIC="], in: SharedFixtures.packageRoot)
        #expect(built.status == 0, "\(built.output)")
        return BuiltExecutable.url.deletingLastPathComponent().appendingPathComponent("generate-manual").path
    }

    /// Installs the debug build into `prefix` through the script.
    private func install(into prefix: URL) throws -> (status: Int32, output: String) {
        try run("/bin/sh", [Self.script, BuiltExecutable.url.deletingLastPathComponent().path, prefix.path, try manualTool()])
    }

    @Test("the installed program finds its resources through the bin link, from any folder")
    func installedProgramRuns() throws {
        let prefix = try TemporaryFolder()
        let installed = try install(into: prefix.url)
        #expect(installed.status == 0, "\(installed.output)")
        var environment = ProcessInfo.processInfo.environment
        environment["UNCLOUDNOTES_RESOURCES"] = nil
        let shown = try run(prefix.url.appendingPathComponent("bin/uncloudnotes").path, ["model", "show"], in: prefix.url, environment: environment)
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("UnCloudNotesDataModel v4"), "\(shown.output)")
        // Installing again (an upgrade) replaces the resources whole and still works.
        #expect(try install(into: prefix.url).status == 0)
        #expect(try run(prefix.url.appendingPathComponent("bin/uncloudnotes").path, ["model", "show"], environment: environment).status == 0)
    }

    @Test("completions for bash, zsh and fish and the man page are installed, generated from the commands")
    func completionsAndManual() throws {
        let prefix = try TemporaryFolder()
        let installed = try install(into: prefix.url)
        #expect(installed.status == 0, "\(installed.output)")
        let share = prefix.url.appendingPathComponent("share")
        let files = ["bash-completion/completions/uncloudnotes", "zsh/site-functions/_uncloudnotes",
                     "fish/vendor_completions.d/uncloudnotes.fish", "man/man1/uncloudnotes.1"].map { share.appendingPathComponent($0) }
        for file in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect(attributes[.posixPermissions] as? Int == 0o644, "\(file.path)")
        }
        // Bash completes the subcommands of `store` from the installed script.
        let completion = """
            source '\(files[0].path)'
            COMP_LINE='uncloudnotes store '; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(uncloudnotes store ''); COMP_CWORD=2
            _uncloudnotes; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let completed = try run("/bin/bash", ["-c", completion])
        #expect(completed.status == 0 && Set(completed.output.split(separator: "\n")).isSuperset(of: ["info", "migrate", "export"]),
                "\(completed.output)")
        #expect(try String(contentsOf: files[1], encoding: .utf8).hasPrefix("#compdef uncloudnotes"))
        #expect(try String(contentsOf: files[2], encoding: .utf8).contains("complete -c 'uncloudnotes'"))
        // The man page renders, and documents every command with its options.
        let manual = try run("/usr/bin/man", ["-l", files[3].path], environment: ["MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(manual.status == 0, "\(manual.output)")
        for text in ["UNCLOUDNOTES(1)", "store migrate", "--mappings folder", "notes import", "--allow-empty"] {
            #expect(manual.output.contains(text), "\(text)")
        }
        // groff and man say "warning:"; the page itself may use the word (model check's warnings).
        #expect(!manual.output.contains("warning:"), "\(manual.output)")
    }

    @Test("a folder without a build, or no manual tool, is refused with what to do")
    func nothingBuilt() throws {
        let empty = try TemporaryFolder()
        let result = try run("/bin/sh", [Self.script, empty.url.path, empty.url.appendingPathComponent("prefix").path, "/bin/true"])
        #expect(result.status == 1 && result.output.contains("run swift build first"))
        let noTool = try run("/bin/sh", [Self.script, BuiltExecutable.url.deletingLastPathComponent().path,
                                         empty.url.appendingPathComponent("prefix").path, empty.url.appendingPathComponent("none").path])
        #expect(noTool.status == 1 && noTool.output.contains("run make manual-tool first"))
    }

    @Test("make install builds in release mode, the Swift runtime linked in, and installs through the script")
    func makeTarget() throws {
        let plan = try run("/usr/bin/make", ["-n", "install", "PREFIX=/opt/notes"], in: SharedFixtures.packageRoot)
        #expect(plan.status == 0, "\(plan.output)")
        #expect(plan.output.contains("build -c release --static-swift-stdlib --product uncloudnotes"), "\(plan.output)")
        #expect(plan.output.contains("scripts/install.sh \"$(swift build -c release --static-swift-stdlib --show-bin-path)\" \"/opt/notes\" "
            + "\"$(swift build -c release --static-swift-stdlib --show-bin-path)/generate-manual\""))
        #expect(plan.output.contains("build -c release --static-swift-stdlib --product generate-manual"))
    }
}
