import Foundation
import Testing
import TestSupport

/// v5's keys in the real program at a terminal: an extension of `TerminalAppTests` so all tmux
/// tests run one at a time.
extension TerminalAppTests {
    @Test("at 80x24: p pins (marked [pin], first), s sorts by date modified, t picks a tag with counts, d then u brings a note back")
    func v5Keys() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        for arguments in [["--title", "Groceries", "--body", "milk"], ["--title", "Plan", "--body", "steps", "--tag", "work"],
                          ["--title", "Report", "--body", "q3", "--tag", "work", "--tag", "urgent"]] {
            try #require(try BuiltExecutable.run(["--store", store.path, "notes", "add"] + arguments).exitCode == 0)
        }
        let tmux = try launch(store: store, width: 80, height: 24)
        try tmux.waitFor("3 notes · v5")
        #expect(try tmux.screen().contains("p pin"), "the hint line names v5's keys")
        // Groceries is the oldest, last: pin it.
        try tmux.press("End", "p")
        let pinned = try tmux.waitFor("note pinned")
        let rows = pinned.split(separator: "\n").map(String.init)
        #expect(rows.count > 1 && rows[1].contains("›Groceries") && rows[1].contains("[pin]"), "\(pinned)")
        try tmux.press("s")
        try tmux.waitFor("by date modified")
        try tmux.press("t")
        let picker = try tmux.waitFor("work  (2)")
        #expect(picker.contains("urgent  (1)") && picker.contains("All notes"))
        try tmux.press("Down", "Down", "Enter")
        let filtered = try tmux.waitFor("tag work (2)")
        #expect(!filtered.contains("Groceries") && filtered.contains("#work"), "\(filtered)")
        try tmux.press("Escape")
        try tmux.waitFor("Groceries")
        try tmux.press("Home", "d")
        try tmux.waitFor("Delete the note “Groceries”? y/N")
        try tmux.press("y")
        try tmux.waitFor("u undoes the delete")
        try tmux.press("u")
        let back = try tmux.waitFor("note restored")
        let restored = back.split(separator: "\n").map(String.init)
        #expect(restored.count > 1 && restored[1].contains("Groceries") && restored[1].contains("[pin]"), "restored with its pin: \(back)")
        try quit(tmux)
        let listed = try BuiltExecutable.run(["--store", store.path, "notes", "list"]).standardOutput
        #expect(listed.split(separator: "\n").first?.hasSuffix("\tGroceries\t\tpinned\t") == true, "\(listed)")
    }
}
