import Foundation
import Testing
import TestSupport
@testable import NotesTerminalUI

/// The terminal description ncurses starts on when pictures are pixels in cells: the terminal's
/// own, compiled by the real `tic`, without what ncurses scrolls rows with.
@Suite("A terminal description without scrolling")
struct StillCellsTerminfoTests {
    @Test("compiled from xterm-256color: no scrolling region, index or line insertion; cursor moves and colours kept")
    func compiled() throws {
        let still = try #require(StillCellsTerminfo.compile(basedOn: "xterm-256color"))
        defer { try? FileManager.default.removeItem(at: still.folder) }
        #expect(still.name == "xterm-256color-stillcells")
        let shown = try SpawnedProcess.run(["sh", "-c", "infocmp -x -A '\(still.folder.path)' '\(still.name)' > '\(still.folder.path)/shown'"])
        #expect(shown.code == 0)
        let description = try String(contentsOf: still.folder.appendingPathComponent("shown"), encoding: .utf8)
        let capabilities = Set(description.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map { String($0.split(separator: "=").first ?? "") })
        for removed in StillCellsTerminfo.removed { #expect(!capabilities.contains(removed), "\(removed) is gone") }
        for kept in ["cup", "el", "setaf", "smcup", "kcuu1"] { #expect(capabilities.contains(kept), "\(kept) is kept") }
        let mode = try FileManager.default.attributesOfItem(atPath: still.folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("an entry tic cannot find gives nothing (the app then starts on the terminal's own)")
    func unknownTerminal() {
        #expect(StillCellsTerminfo.compile(basedOn: "no-such-terminal-at-all") == nil)
    }
}
