import Foundation
import ManagedStore
@testable import NotesTerminalUI
import Testing

/// The migration screen's log, time and questions, drawn without a terminal.
@Suite("The migration screen: a log that wraps and scrolls, the time, the cancel question")
struct MigrationScreenTests {
    init() { DisplayWidth.configureLocale() }

    /// A running upgrade's screen with `count` long log lines.
    private func state(lines count: Int) -> MigrationScreenState {
        var state = MigrationScreenState(storePath: "/tmp/n.sqlite")
        state.lines = (1...count).map { "line \($0): " + String(repeating: "word ", count: 20) + "END\($0)" }
        state.elapsed = 2.25
        return state
    }

    private func text(_ state: MigrationScreenState, _ width: Int = 80, _ height: Int = 24) -> [String] {
        state.render(width: width, height: height).lines
    }

    @Test("long lines wrap (nothing cut at 80 columns); the log shows its end and says how to scroll")
    func wrapsAndFollows() {
        let screen = text(state(lines: 30))
        #expect(screen.contains { $0.contains("END30") }, "the newest line, wrapped, is whole")
        #expect(!screen.contains { $0.contains("END1 ") || $0.hasSuffix("END1") })
        #expect(screen.last?.hasPrefix("Ctrl-C cancel the upgrade  ↑↓ PgUp PgDn scroll the log") == true)
    }

    @Test("↑ PgUp Home scroll back through the log, End follows its end again; other keys do not scroll")
    func scrolls() {
        var state = state(lines: 30)
        let end = text(state)
        /// Scrolls with `key`: whether it was a scrolling key.
        func scroll(_ key: Key) -> Bool { state.scrollLog(key, width: 80, height: 24) }
        #expect(scroll(.home))
        #expect(text(state).contains { $0.hasPrefix("line 1: ") })
        #expect(scroll(.pageDown))
        #expect(!text(state).contains { $0.hasPrefix("line 1: ") })
        #expect(scroll(.end) && state.logTop == nil)
        #expect(text(state) == end)
        #expect(scroll(.up) && text(state) != end)
        #expect(!scroll(.character("x")))
    }

    @Test("Ctrl-C's question takes the last line; cancelled, the screen says the store is unchanged")
    func cancelQuestion() {
        var state = state(lines: 2)
        state.asking = true
        #expect(text(state).last?.hasPrefix("Cancel the upgrade? y/n") == true)
        state.asking = false
        state.cancelled = true
        let screen = text(state).joined(separator: "\n")
        #expect(screen.hasPrefix("The upgrade was cancelled"))
        #expect(screen.contains("Your store is unchanged"))
    }
}
