import Foundation
import Testing
import TestSupport

@Suite("The settings file, config.toml")
struct ConfigFileTests {
    @Test("a bad file stops the app with one line naming the file and what is wrong", arguments: [
        ("images = \"pixels\"\n", "config.toml: images = \"pixels\" is not one of auto, kitty, sixel, iterm2, symbols, none"),
        ("images = 3\n", "config.toml: images must be a string: one of auto, kitty, sixel, iterm2, symbols, none"),
        ("images = \n", "config.toml:1: "),
        ("colour = true\n", "config.toml: unknown setting \"colour\" (known: images, sync)"),
        ("sync = true\n", "config.toml: sync must be a table: [sync] and its settings below it"),
        ("[sync]\non_start = true\n", "config.toml: unknown setting \"sync.on_start\" (known: sync.on_open, sync.on_quit)"),
        ("[sync]\non_open = \"yes\"\n", "config.toml: sync.on_open must be true or false"),
    ])
    func badFile(contents: String, message: String) throws {
        let folder = try TemporaryFolder()
        let config = folder.url.appendingPathComponent("uncloudnotes")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try contents.write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let run = try BuiltExecutable.run(["--store", folder.url.appendingPathComponent("n.sqlite").path],
                                          environment: ["XDG_CONFIG_HOME": folder.url.path])
        #expect(run.exitCode == 2)
        #expect(run.standardError.hasPrefix("uncloudnotes: \(config.path)/"), "\(run.standardError)")
        #expect(run.standardError.contains(message) && run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
    }

    @Test("images = \"none\" in the file turns previews off; --images on the command line wins")
    func setting() throws {
        let folder = try TemporaryFolder()
        let config = folder.url.appendingPathComponent("uncloudnotes")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "# previews\nimages = \"none\"\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let store = folder.url.appendingPathComponent("n.sqlite")
        let png = try folder.writeImage(named: "a.png", width: 30, height: 10)
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Pic", "--body", "a picture", "--image", png.path]).exitCode == 0)
        for (arguments, shows) in [("", "(images are off: --images none)"), ("--images symbols", "Pic")] {
            let tmux = try TmuxSession(command: "XDG_CONFIG_HOME='\(folder.url.path)' '\(BuiltExecutable.url.path)' --store '\(store.path)' \(arguments); sleep 60",
                                       environment: ["LANG": "C.UTF-8"])
            let screen = try tmux.waitFor("1 note")
            #expect(screen.contains(shows))
            #expect(screen.contains("(images are off") == arguments.isEmpty, "\(screen)")
        }
    }
}
