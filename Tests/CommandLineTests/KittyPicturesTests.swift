import Foundation
import Testing
import TestSupport

/// The app on a pseudo-terminal that answers as kitty does: its pictures are decoded from what it
/// wrote and checked for size, place and deletion.
@Suite("Kitty pictures on a scripted terminal")
struct KittyPicturesTests {
    static let answers = [
        ScriptedTerminal.Answer("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\", "\u{1B}_Gi=31;OK\u{1B}\\"),
        ScriptedTerminal.Answer("\u{1B}[16t", "\u{1B}[6;20;10t"),
        ScriptedTerminal.Answer("\u{1B}[c", "\u{1B}[?62;22c"),
    ]

    /// One kitty graphics command as written: its keys and its payload.
    struct Command {
        let keys: [String: String]
        let payload: String
        /// Where it starts in the output.
        let offset: Int
    }

    static func commands(in output: [UInt8]) -> [Command] {
        var commands: [Command] = []
        var index = 0
        while let start = ScriptedTerminal.find(Array("\u{1B}_G".utf8), in: output, from: index),
              let end = ScriptedTerminal.find(Array("\u{1B}\\".utf8), in: output, from: start) {
            let body = String(decoding: output[(start + 3)..<end], as: UTF8.self)
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            var keys: [String: String] = [:]
            for pair in parts[0].split(separator: ",") {
                let keyValue = pair.split(separator: "=", maxSplits: 1)
                if keyValue.count == 2 { keys[String(keyValue[0])] = String(keyValue[1]) }
            }
            commands.append(Command(keys: keys, payload: parts.count > 1 ? String(parts[1]) : "", offset: start))
            index = end + 2
        }
        return commands
    }

    /// The pictures transmitted whole: their start command, decoded pixels (RGBA) and the cursor
    /// position written just before.
    static func pictures(in output: [UInt8]) -> [(start: Command, pixels: [UInt8], row: Int, column: Int)] {
        let all = commands(in: output)
        var pictures: [(Command, [UInt8], Int, Int)] = []
        for (position, command) in all.enumerated() where command.keys["a"] == "T" {
            // Each chunk is base64 on its own (padded where it ends).
            var pixels: [UInt8] = []
            var isWhole = false
            for chunk in all[(position + 1)...] {
                pixels += Data(base64Encoded: chunk.payload) ?? Data()
                isWhole = chunk.keys["m"] == "0"
                if isWhole { break }
            }
            guard isWhole else { continue }
            let before = String(decoding: output[max(0, command.offset - 16)..<command.offset], as: UTF8.self)
            let cursor = before.components(separatedBy: "\u{1B}[").last?.dropLast().split(separator: ";").compactMap { Int($0) } ?? []
            pictures.append((command, pixels, cursor.first ?? -1, cursor.last ?? -1))
        }
        return pictures
    }

    @Test("the picture is sent at its cells' pixel size at the preview's cell, deleted by id when the note changes and at exit")
    func picturesPlacedAndDeleted() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "gradient.png", width: 400, height: 300)
        for (title, image) in [("Photo", [png.path]), ("Plain", [])] {
            let arguments = ["--store", store.path, "notes", "add", "--title", title, "--body", "text"] + image.flatMap { ["--image", $0] }
            #expect(try BuiltExecutable.run(arguments).exitCode == 0)
        }
        let terminal = try ScriptedTerminal([BuiltExecutable.url.path, "--store", store.path],
                                            environment: ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1", "LANG": "C.UTF-8",
                                                          "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"],
                                            answers: Self.answers)
        try terminal.read(until: "the list") { String(decoding: $0, as: UTF8.self).contains("2 notes") }
        #expect(Self.pictures(in: terminal.output).isEmpty, "the newest note, selected, has no image")
        terminal.type("j")
        try terminal.read(until: "the photo's picture") { Self.pictures(in: $0).count == 1 }
        let picture = try #require(Self.pictures(in: terminal.output).first)
        let id = try #require(picture.start.keys["i"])
        #expect(picture.start.keys["q"] == "2" && picture.start.keys["C"] == "1", "quiet, the cursor left in place")
        let columns = try #require(picture.start.keys["c"].flatMap { Int($0) }), rows = try #require(picture.start.keys["r"].flatMap { Int($0) })
        let width = try #require(picture.start.keys["s"].flatMap { Int($0) }), height = try #require(picture.start.keys["v"].flatMap { Int($0) })
        // 100x30 cells of 10x20 pixels: the preview is the right part of the list, below its text.
        #expect(width == columns * 10 && height == rows * 20)
        #expect(columns <= 42 && rows <= 16 && (columns == 42 || rows == 16), "fitted to the preview: \(columns)x\(rows)")
        #expect(abs(Double(width) / Double(height) - 4.0 / 3.0) < 0.15, "the photo's shape kept: \(width)x\(height)")
        try #require(picture.pixels.count == width * height * 4)
        #expect((picture.row, picture.column) == (12, 58), "the preview's first picture cell, 1-based")
        // The gradient runs from red 0 (left) to 255 (right) and green 0 (top) to 255 (bottom).
        let topLeft = Array(picture.pixels[0..<4]), bottomRight = Array(picture.pixels[(picture.pixels.count - 4)...])
        #expect(topLeft[0] < 40 && topLeft[1] < 40 && abs(Int(topLeft[2]) - 128) < 30, "\(topLeft)")
        #expect(bottomRight[0] > 215 && bottomRight[1] > 215, "\(bottomRight)")

        let deletion = "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"
        terminal.type("k")
        try terminal.read(until: "the picture's deletion") { String(decoding: $0, as: UTF8.self).contains(deletion) }
        terminal.type("j")
        try terminal.read(until: "the picture again") { Self.pictures(in: $0).count == 2 }
        let before = String(decoding: terminal.output, as: UTF8.self).components(separatedBy: deletion).count
        terminal.type("q")
        #expect(try terminal.waitForExit() == 0)
        let text = String(decoding: terminal.output, as: UTF8.self)
        #expect(text.components(separatedBy: deletion).count == before + 1, "deleted at exit")
        #expect(Self.pictures(in: terminal.output).count == 2, "no picture drawn for the key repeat or the exit")
    }
}
