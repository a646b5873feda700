import Foundation
import Testing
import TestSupport

@Suite("uncloudnotes notes image")
struct NotesImageCommandTests {
    @Test("writes the image's own bytes to a pipe or a private file; refuses a missing image")
    func writesTheImage() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "a.png", width: 30, height: 10)
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Pic", "--body", "a picture", "--image", png.path]).exitCode == 0)
        let piped = folder.url.appendingPathComponent("piped")
        let run = try BuiltExecutable.run(["--store", store.path, "notes", "image", "1", "1"], standardOutput: .path(piped.path))
        #expect(run.exitCode == 0)
        #expect(try Data(contentsOf: piped) == Data(contentsOf: png))
        // `--output -` is standard output, as `notes import -` reads standard input, never a file named "-".
        let dashed = try BuiltExecutable.run(["--store", store.path, "notes", "image", "1", "1", "--output", "-"],
                                             standardOutput: .path(folder.url.appendingPathComponent("dashed").path))
        #expect(dashed.exitCode == 0)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("dashed")) == Data(contentsOf: png))
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
        let output = folder.url.appendingPathComponent("out.png")
        try Data("old".utf8).write(to: output)
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "image", "1", "1", "--output", output.path]).exitCode == 0)
        #expect(try Data(contentsOf: output) == Data(contentsOf: png))
        let mode = try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let missing = try BuiltExecutable.run(["--store", store.path, "notes", "image", "1", "2", "--output", output.path])
        #expect(missing.exitCode == 1)
        #expect(missing.standardError == "uncloudnotes: note 1 has no image 2 (it has 1 image; see uncloudnotes notes show 1)\n")
        #expect(try Data(contentsOf: output) == Data(contentsOf: png), "a failed command leaves the file as it was")
    }

    @Test("--output naming a device writes into it and leaves it a device: a full one is an error, exit 1")
    func outputIntoADevice() throws {
        let folder = try TemporaryFolder()
        // A twin of /dev/full in the test's folder, so a regression replaces nothing of the system's.
        let full = folder.url.appendingPathComponent("full")
        guard try SpawnedProcess.run(["mknod", full.path, "c", "1", "7"]).code == 0 else {
            print("skipped: mknod needs root here")
            return
        }
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "a.png", width: 30, height: 10)
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Pic", "--body", "a picture", "--image", png.path]).exitCode == 0)
        let run = try BuiltExecutable.run(["--store", store.path, "notes", "image", "1", "1", "--output", full.path])
        #expect(run.exitCode == 1)
        #expect(run.standardError.hasPrefix("uncloudnotes: cannot write \(full.path) (No space left on device)"), "\(run.standardError)")
        let type = try FileManager.default.attributesOfItem(atPath: full.path)[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial, "still a device, not a file renamed over it")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty)
    }

    @Test("a terminal on stdout is refused with what to do instead")
    func refusesTheTerminal() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "a.png", width: 30, height: 10)
        #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", "Pic", "--body", "a picture", "--image", png.path]).exitCode == 0)
        let tmux = try TmuxSession(command: "'\(BuiltExecutable.url.path)' --store '\(store.path)' notes image 1 1; echo \"EXITED:$?\"; sleep 60")
        let screen = try tmux.waitFor("EXITED:")
        #expect(screen.contains("an image is binary data, not for the terminal: give --output FILE, or pipe it"))
        #expect(screen.contains("EXITED:1"))
    }
}
