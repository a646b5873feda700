import Foundation
import Testing
import TestSupport

/// The config file's `[sync]` table, with the real binary in tmux, real git and a bare
/// repository as the remote: a sync as the app opens brings the other machine's note onto the
/// list, and a sync as it quits sends the note typed meanwhile, saying so once the screen is back.
@Suite("Syncing when the app opens and quits")
struct TerminalSyncSettingTests {
    @Test("on_open brings the laptop's note in; on_quit sends the note typed here, and the laptop gets it")
    func openAndQuit() throws {
        let folder = try TemporaryFolder()
        let remote = folder.url.appendingPathComponent("remote.git")
        #expect(try SpawnedProcess.run(["/usr/bin/env", "git", "init", "-q", "--bare", "-b", "main", remote.path]).code == 0)
        func store(_ name: String) -> [String] { ["--store", folder.url.appendingPathComponent("\(name).sqlite").path, "--model-version", "v5"] }
        #expect(try BuiltExecutable.run(["notes", "add", "--title", "On the desk", "--body", "here"] + store("desk")).exitCode == 0)
        #expect(try BuiltExecutable.run(["sync", "--remote", remote.path, "--machine", "desk"] + store("desk")).exitCode == 0)
        #expect(try BuiltExecutable.run(["notes", "add", "--title", "From the laptop", "--body", "there"] + store("laptop")).exitCode == 0)
        #expect(try BuiltExecutable.run(["sync", "--remote", remote.path, "--machine", "laptop"] + store("laptop")).exitCode == 0)

        let config = folder.url.appendingPathComponent("uncloudnotes")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[sync]\non_open = true\non_quit = true\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let arguments = store("desk").map { "'\($0)'" }.joined(separator: " ")
        let tmux = try TmuxSession(command: "XDG_CONFIG_HOME='\(folder.url.path)' '\(BuiltExecutable.url.path)' \(arguments); echo \"exit $?\"; sleep 60",
                                   width: 120, environment: ["LANG": "C.UTF-8"])
        let opened = try tmux.waitUntil("the laptop's note after the sync on open") { $0.contains("From the laptop") && $0.contains("2 notes") }
        #expect(opened.contains("received 1 added"), "\(opened)")
        try tmux.waitFor("synced ")
        try tmux.press("n")
        try tmux.waitFor("New note")
        try tmux.type("Typed at the desk")
        try tmux.press("C-s")
        try tmux.waitUntil("the new note, waiting to be synced") { $0.contains("3 notes") && $0.contains("changes waiting") }
        try tmux.press("q")
        // The screen is given back first; the sync's lines follow on the terminal.
        let said = try tmux.waitFor("exit ")
        #expect(said.contains("sync: sent 1 added; received nothing"), "\(said)")
        #expect(said.contains("exit 0"), "\(said)")

        #expect(try BuiltExecutable.run(["sync"] + store("laptop")).exitCode == 0)
        let list = try BuiltExecutable.run(["notes", "list"] + store("laptop"))
        #expect(list.standardOutput.contains("\tTyped at the desk\t"), "\(list.standardOutput)")
    }
}
