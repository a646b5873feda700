import Foundation
import Testing
import TestSupport

/// The app on a pseudo-terminal that answers as kitty (or iTerm2) does: its pictures are decoded
/// from what it wrote and checked for size, place and deletion.
@Suite("Kitty and iTerm2 pictures on a scripted terminal")
struct ScriptedTerminalPicturesTests {
    static let kittyQuery = ScriptedTerminal.Answer("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\", "\u{1B}_Gi=31;OK\u{1B}\\")
    static let cellSize = ScriptedTerminal.Answer("\u{1B}[16t", "\u{1B}[6;20;10t")
    static let deviceAttributes = ScriptedTerminal.Answer("\u{1B}[c", "\u{1B}[?62;22c")

    /// 100x30 cells of 10x20 pixels: the list preview's picture starts at row 12, column 58 (1-based)
    /// and has 42x16 cells at most.
    static let firstCell = (row: 12, column: 58)

    /// The app on a scripted terminal, on a store of two notes: "Plain" (newest, selected at
    /// launch) and "Photo", holding a 400x300 gradient; the list is on screen (`showing` is in
    /// what the app wrote).
    static func launch(environment: [String: String], answers: [ScriptedTerminal.Answer], in folder: TemporaryFolder,
                       showing: String = "2 notes") throws -> ScriptedTerminal {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "gradient.png", width: 400, height: 300)
        for (title, image) in [("Photo", [png.path]), ("Plain", [])] {
            let arguments = ["--store", store.path, "notes", "add", "--title", title, "--body", "text"] + image.flatMap { ["--image", $0] }
            #expect(try BuiltExecutable.run(arguments).exitCode == 0)
        }
        let terminal = try ScriptedTerminal([BuiltExecutable.url.path, "--store", store.path],
                                            environment: environment.merging(["LANG": "C.UTF-8", "TERM": "xterm-256color",
                                                                              "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]) { $1 },
                                            answers: answers)
        try terminal.read(until: "the list") { String(decoding: $0, as: UTF8.self).contains(showing) }
        return terminal
    }

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
    static func kittyPictures(in output: [UInt8]) -> [(start: Command, pixels: [UInt8], row: Int, column: Int)] {
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
        let terminal = try Self.launch(environment: ["KITTY_WINDOW_ID": "1"], answers: [Self.kittyQuery, Self.cellSize, Self.deviceAttributes], in: folder)
        #expect(Self.kittyPictures(in: terminal.output).isEmpty, "the newest note, selected, has no image")
        terminal.type("j")
        try terminal.read(until: "the photo's picture") { Self.kittyPictures(in: $0).count == 1 }
        let picture = try #require(Self.kittyPictures(in: terminal.output).first)
        let id = try #require(picture.start.keys["i"])
        #expect(picture.start.keys["q"] == "2" && picture.start.keys["C"] == "1", "quiet, the cursor left in place")
        let columns = try #require(picture.start.keys["c"].flatMap { Int($0) }), rows = try #require(picture.start.keys["r"].flatMap { Int($0) })
        let width = try #require(picture.start.keys["s"].flatMap { Int($0) }), height = try #require(picture.start.keys["v"].flatMap { Int($0) })
        // 100x30 cells of 10x20 pixels: the preview is the right part of the list, below its text.
        #expect(width == columns * 10 && height == rows * 20)
        #expect(columns <= 42 && rows <= 16 && (columns == 42 || rows == 16), "fitted to the preview: \(columns)x\(rows)")
        #expect(abs(Double(width) / Double(height) - 4.0 / 3.0) < 0.15, "the photo's shape kept: \(width)x\(height)")
        try #require(picture.pixels.count == width * height * 4)
        #expect((picture.row, picture.column) == Self.firstCell, "the preview's first picture cell, 1-based")
        // The gradient runs from red 0 (left) to 255 (right) and green 0 (top) to 255 (bottom).
        let topLeft = Array(picture.pixels[0..<4]), bottomRight = Array(picture.pixels[(picture.pixels.count - 4)...])
        #expect(topLeft[0] < 40 && topLeft[1] < 40 && abs(Int(topLeft[2]) - 128) < 30, "\(topLeft)")
        #expect(bottomRight[0] > 215 && bottomRight[1] > 215, "\(bottomRight)")

        let deletion = "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\"
        terminal.type("k")
        try terminal.read(until: "the picture's deletion") { String(decoding: $0, as: UTF8.self).contains(deletion) }
        terminal.type("j")
        try terminal.read(until: "the picture again") { Self.kittyPictures(in: $0).count == 2 }
        // Keys that change nothing (down at the last note, repeated) send nothing: no flicker.
        terminal.type("jjj")
        terminal.type("\u{0C}")
        let before = String(decoding: terminal.output, as: UTF8.self).components(separatedBy: deletion).count
        terminal.type("q")
        #expect(try terminal.waitForExit() == 0)
        let text = String(decoding: terminal.output, as: UTF8.self)
        #expect(text.components(separatedBy: deletion).count == before + 1, "deleted at exit")
        #expect(Self.kittyPictures(in: terminal.output).count == 2, "no picture drawn for the key repeat or the exit")
    }

    /// iTerm2's inline images: the cells, the image (a TIFF, as libchafa writes it) and where it went.
    static func iTerm2Images(in output: [UInt8]) -> [(columns: Int, rows: Int, width: Int, height: Int, row: Int, column: Int)] {
        let text = String(decoding: output, as: UTF8.self)
        return text.components(separatedBy: "\u{1B}]1337;File=").dropFirst().compactMap { piece in
            guard let end = piece.firstIndex(of: "\u{07}"), let colon = piece.firstIndex(of: ":") else { return nil }
            let fields = Dictionary(piece[..<colon].split(separator: ";").compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=")
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }) { $1 }
            guard let tiff = Data(base64Encoded: String(piece[piece.index(after: colon)..<end])).map(Array.init),
                  let size = tiffSize(tiff), let columns = fields["width"].flatMap(Int.init), let rows = fields["height"].flatMap(Int.init) else { return nil }
            let before = text.components(separatedBy: "\u{1B}]1337;File=" + piece).first ?? ""
            let cursor = before.components(separatedBy: "\u{1B}[").last?.dropLast().split(separator: ";").compactMap { Int($0) } ?? []
            return (columns, rows, size.width, size.height, cursor.first ?? -1, cursor.last ?? -1)
        }
    }

    /// Width and height from a little-endian TIFF's first directory (tags 256 and 257).
    static func tiffSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func number(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        guard bytes.count > 8, bytes[0] == 0x49, bytes[1] == 0x49 else { return nil }
        let directory = number(4, 4)
        guard directory + 2 <= bytes.count else { return nil }
        var width = 0, height = 0
        for entry in 0..<number(directory, 2) {
            let offset = directory + 2 + entry * 12
            guard offset + 12 <= bytes.count else { return nil }
            let value = number(offset + 2, 2) == 3 ? number(offset + 8, 2) : number(offset + 8, 4)
            if number(offset, 2) == 256 { width = value }
            if number(offset, 2) == 257 { height = value }
        }
        return width > 0 && height > 0 ? (width, height) : nil
    }

    @Test("iTerm2: the picture is an image of its cells' pixel size, at the preview's cell; the environment chose it, device attributes confirmed a terminal")
    func iTerm2Pictures() throws {
        let folder = try TemporaryFolder()
        let terminal = try Self.launch(environment: ["TERM_PROGRAM": "iTerm.app"], answers: [Self.cellSize, Self.deviceAttributes], in: folder)
        terminal.type("j")
        try terminal.read(until: "the photo's iTerm2 image") { Self.iTerm2Images(in: $0).count == 1 }
        let image = try #require(Self.iTerm2Images(in: terminal.output).first)
        #expect(image.width == image.columns * 10 && image.height == image.rows * 20, "\(image)")
        #expect(image.columns <= 42 && image.rows <= 16 && (image.columns == 42 || image.rows == 16))
        #expect((image.row, image.column) == Self.firstCell)
        #expect(Self.kittyPictures(in: terminal.output).isEmpty, "no kitty sequences for iTerm2")
        terminal.type("kq")
        #expect(try terminal.waitForExit() == 0)
        #expect(Self.iTerm2Images(in: terminal.output).count == 1, "the image is wiped by repainting its cells, not drawn again")
    }

    @Test("a terminal that answers after the wait: its replies are not typed into the app (no help from the reply's '?')")
    func lateRepliesAreNotKeys() throws {
        let folder = try TemporaryFolder()
        // The status line says so (the notice leaves no room for the count of notes).
        let terminal = try Self.launch(environment: [:], answers: [], in: folder, showing: "did not answer its queries in time")
        let help = "open the note"
        // xterm's answers, late: the cell size, then device attributes (with sixel).
        terminal.type("\u{1B}[6;20;10t\u{1B}[?62;4;22c")
        terminal.type("?")
        try terminal.read(until: "the help the key asked for") { String(decoding: $0, as: UTF8.self).contains(help) }
        terminal.type("q")
        terminal.type("q")
        #expect(try terminal.waitForExit() == 0)
        let text = String(decoding: terminal.output, as: UTF8.self)
        #expect(text.components(separatedBy: help).count == 2, "help opened once, by the key, not by the reply's '?'")
        #expect(!text.contains("Search:") && !text.contains("62;4"), "nothing of the reply on screen")
    }

    static let sixelStart = Array("\u{1B}P0;1;0q".utf8)

    static func sixelCount(in output: [UInt8]) -> Int {
        var count = 0, index = 0
        while let found = ScriptedTerminal.find(sixelStart, in: output, from: index) {
            count += 1
            index = found + sixelStart.count
        }
        return count
    }

    @Test("sixel in the wide detail view: the body scrolling beside the picture sends no new sixel data, and no scrolling region")
    func sixelNotRedrawnWhileTextScrolls() throws {
        let folder = try TemporaryFolder()
        let store = try photoBesideLongBody(in: folder)
        let terminal = try ScriptedTerminal([BuiltExecutable.url.path, "--images", "sixel", "--store", store.path],
                                            environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"],
                                            columns: 120, rows: 30, answers: [Self.cellSize, Self.deviceAttributes])
        try terminal.read(until: "the list's picture") { Self.sixelCount(in: $0) == 1 }
        terminal.type("\r")
        try terminal.read(until: "the picture in the detail view") { Self.sixelCount(in: $0) == 2 }
        let opened = terminal.output.count
        // A key held down: the body scrolls beside the picture, line by line.
        terminal.type(String(repeating: "j", count: 12))
        terminal.type("?")
        try terminal.read(until: "help") { String(decoding: $0, as: UTF8.self).contains("open the note") }
        let scrolling = String(decoding: terminal.output[opened...], as: UTF8.self)
        #expect(scrolling.contains("↑ more"), "the body scrolled (its top is out of sight)")
        #expect(Self.sixelCount(in: terminal.output) == 2, "the list's picture and the detail view's, each once")
        #expect(scrolling.range(of: "\u{1B}\\[[0-9]+;[0-9]+r", options: .regularExpression) == nil, "ncurses scrolled no rows (they would move the picture)")
        terminal.type("qqq")
        #expect(try terminal.waitForExit() == 0)
    }
}
