import Foundation
import Testing
import TestSupport

@Suite("A 1 MB note in the full-screen app, driven in tmux", .serialized)
struct TerminalBigNoteTests {
    /// Numbered paragraphs to about 1 MB, then a last line.
    static let body: String = {
        let sentence = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, 日本語の文章も少し. "
        var text = ""
        var number = 0
        while text.utf8.count < 1 << 20 {
            text += "¶\(number) " + String(repeating: sentence, count: 8) + "\n"
            number += 1
        }
        return text + "The very last line."
    }()

    @Test("with a 1 MB note on screen keys answer: its preview, End shows its last line, Home its first, a search finds it")
    func keysAnswer() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        for (title, body) in [("Small one", "short"), ("Small two", "also short"), ("Big", Self.body)] {
            let added = try BuiltExecutable.run(["notes", "add", "--store", store.path, "--title", title, "--body", "-"],
                                                standardInput: Data(body.utf8))
            #expect(added.exitCode == 0, "\(added.standardError)")
        }
        let tmux = try TerminalAppTests().launch(store: store, width: 100, height: 30)
        try tmux.waitFor("›Big")
        try tmux.waitFor("¶0 Lorem ipsum")
        try tmux.press("Down")
        try tmux.waitFor("also short")
        try tmux.press("Up")
        try tmux.waitFor("¶0 Lorem ipsum")
        try tmux.press("Enter")
        try tmux.waitFor("↓ more")
        try tmux.press("End")
        // A repaint can reach tmux in several writes: wait for the whole screen, not its first changed line.
        _ = try tmux.waitUntil("the note's end, and nothing of its start") {
            $0.contains("The very last line.") && $0.contains("↑ more") && !$0.contains("¶0 Lorem")
        }
        try tmux.press("Home")
        _ = try tmux.waitUntil("the note's start, and nothing of its end") {
            $0.contains("¶0 Lorem ipsum") && !$0.contains("The very last line.")
        }
        try tmux.press("Escape", "/")
        try tmux.type("very last")
        try tmux.waitFor("(1 found)")
        try tmux.press("Enter")
        try TerminalAppTests().quit(tmux)
    }
}
