import Foundation
import Testing
import TestSupport

/// `make install`: the program installed with its resources runs from anywhere. Building in
/// release mode inside a test is too slow, so the test installs the debug build through the
/// same script, and checks that the make target builds release and calls that script.
@Suite("make install")
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

    @Test("the installed program finds its resources through the bin link, from any folder")
    func installedProgramRuns() throws {
        let prefix = try TemporaryFolder()
        let script = SharedFixtures.packageRoot.appendingPathComponent("scripts/install.sh").path
        let installed = try run("/bin/sh", [script, BuiltExecutable.url.deletingLastPathComponent().path, prefix.url.path])
        #expect(installed.status == 0, "\(installed.output)")
        var environment = ProcessInfo.processInfo.environment
        environment["UNCLOUDNOTES_RESOURCES"] = nil
        let shown = try run(prefix.url.appendingPathComponent("bin/uncloudnotes").path, ["model", "show"], in: prefix.url, environment: environment)
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("UnCloudNotesDataModel v4"), "\(shown.output)")
        // Installing again (an upgrade) replaces the resources whole and still works.
        #expect(try run("/bin/sh", [script, BuiltExecutable.url.deletingLastPathComponent().path, prefix.url.path]).status == 0)
        #expect(try run(prefix.url.appendingPathComponent("bin/uncloudnotes").path, ["model", "show"], environment: environment).status == 0)
    }

    @Test("a folder without a build is refused with what to do")
    func nothingBuilt() throws {
        let empty = try TemporaryFolder()
        let script = SharedFixtures.packageRoot.appendingPathComponent("scripts/install.sh").path
        let result = try run("/bin/sh", [script, empty.url.path, empty.url.appendingPathComponent("prefix").path])
        #expect(result.status == 1 && result.output.contains("run swift build first"))
    }

    @Test("make install builds in release mode, the Swift runtime linked in, and installs through the script")
    func makeTarget() throws {
        let plan = try run("/usr/bin/make", ["-n", "install", "PREFIX=/opt/notes"], in: SharedFixtures.packageRoot)
        #expect(plan.status == 0, "\(plan.output)")
        #expect(plan.output.contains("build -c release --static-swift-stdlib --product uncloudnotes"), "\(plan.output)")
        #expect(plan.output.contains("scripts/install.sh \"$(swift build -c release --static-swift-stdlib --show-bin-path)\" \"/opt/notes\""))
    }
}
