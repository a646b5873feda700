import Foundation
import Testing
import TestSupport

/// Inside tmux, with kitty outside (as its KITTY_WINDOW_ID says): pictures pass through only when
/// tmux's allow-passthrough is on; otherwise symbols, and the status line says why.
@Suite("Pictures inside tmux", .serialized)
struct TmuxPicturesTests {
    /// A store whose newest note, selected at launch, holds a photo; the other has no image.
    func store(in folder: TemporaryFolder) throws -> URL {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let png = try folder.writeImage(named: "photo.png", width: 400, height: 300)
        for (title, image) in [("Plain", [String]()), ("Photo", [png.path])] {
            #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", title, "--body", "text"] + image.flatMap { ["--image", $0] }).exitCode == 0)
        }
        return store
    }

    @Test("allow-passthrough off: symbols, and why")
    func passthroughOff() throws {
        let folder = try TemporaryFolder()
        let store = try store(in: folder)
        // Colours are what this test looks for: a NO_COLOR in the caller's environment (seen under
        // `swift test` with its output piped) would turn them off.
        let tmux = try TmuxSession(command: "tmux set -g allow-passthrough off; unset NO_COLOR; KITTY_WINDOW_ID=1 '\(BuiltExecutable.url.path)' --store '\(store.path)'; sleep 60",
                                   environment: ["LANG": "C.UTF-8"])
        try tmux.waitFor("images as symbols: tmux's allow-passthrough is off (tmux set -g allow-passthrough on)")
        // A smooth gradient in 256 colours is mostly spaces on coloured backgrounds, so the picture
        // is found by its colours: the preview's rows each change background several times.
        try tmux.waitUntil("the symbol preview's colours", styles: true) { screen in
            !screen.contains("(loading the image)") && Self.previewRows(screen).filter { Self.backgrounds(in: $0) >= 4 }.count >= 8
        }
    }

    /// The preview's rows of a capture (rows 11 to 26).
    static func previewRows(_ screen: String) -> ArraySlice<Substring> {
        screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(11).prefix(16)
    }

    /// How many distinct 256-colour backgrounds a styled row sets.
    static func backgrounds(in row: Substring) -> Int {
        Set(row.components(separatedBy: "\u{1B}[48;5;").dropFirst().map { $0.prefix { $0.isNumber } }).count
    }

    @Test("allow-passthrough on: kitty's sequences wrapped for tmux, at the pane's cells, deleted when the note changes")
    func passthroughOn() throws {
        let folder = try TemporaryFolder()
        let store = try store(in: folder)
        let written = folder.url.appendingPathComponent("pane-output")
        let tmux = try TmuxSession(command: "tmux set -g allow-passthrough on; tmux pipe-pane -o 'cat >> \(written.path)'; KITTY_WINDOW_ID=1 '\(BuiltExecutable.url.path)' --store '\(store.path)'; sleep 60",
                                   environment: ["LANG": "C.UTF-8"])
        try tmux.waitFor("images through tmux passthrough (kitty)")
        let start = "\u{1B}\u{1B}_Ga=T,i="
        let output = try waitForOutput(written, containing: start)
        let id = try #require(output.components(separatedBy: start).last?.prefix { $0.isNumber })
        // The cursor is placed inside each passthrough too, at the preview's cell (the pane is at 0,0).
        #expect(output.contains("\u{1B}Ptmux;\u{1B}\u{1B}[12;58H\u{1B}\u{1B}_Ga=T,i="))
        // No symbols under the picture: neither characters (columns 57 to 98) nor coloured cells.
        let characters = Self.previewRows(try tmux.screen()).map { String(Array($0).dropFirst(57).prefix(42)) }
        #expect(characters.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }, "no symbols under the picture: \(characters)")
        #expect(Self.previewRows(try tmux.screen(styles: true)).allSatisfy { Self.backgrounds(in: $0) == 0 }, "no coloured cells under the picture")
        try tmux.press("j")
        _ = try waitForOutput(written, containing: "\u{1B}Ptmux;\u{1B}\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\u{1B}\\\u{1B}\\")
    }

    /// What the app wrote to its pane, once it holds `text`.
    private func waitForOutput(_ file: URL, containing text: String) throws -> String {
        let deadline = Date().addingTimeInterval(15)
        var output = ""
        while Date() < deadline {
            output = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
            if output.contains(text) { return output }
            usleep(50_000)
        }
        Issue.record("the pane's output never held \(text.debugDescription)")
        throw CancellationError()
    }
}
