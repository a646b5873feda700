import Testing
@testable import NotesTerminalUI

/// Replies a terminal sends after detection stopped waiting never reach the app as keys.
@Suite("Late terminal replies")
struct LateReplyFilterTests {
    static func keys(_ text: String) -> [Key] {
        text.map { $0 == "\u{1B}" ? .escape : .character($0) }
    }

    /// What the filter hands on for `text` arriving at once, then a pause (`release`).
    static func filtered(_ text: String, filter: inout LateReplyFilter) -> [Key] {
        keys(text).flatMap { filter.accept($0) } + filter.release()
    }

    @Test("device attributes, the cell size and the kitty answer are dropped; keys around them pass in order")
    func repliesDropped() {
        var filter = LateReplyFilter()
        #expect(Self.filtered("a\u{1B}[6;20;10t\u{1B}_Gi=31;OK\u{1B}\\b", filter: &filter) == Self.keys("ab"))
        #expect(!filter.isDone)
        #expect(Self.filtered("\u{1B}[?62;4;22cj", filter: &filter) == Self.keys("j"))
        #expect(filter.isDone, "device attributes come last: nothing more is due")
    }

    @Test("Escape alone, Escape then a key, and sequences that are not replies are handed on unchanged")
    func keysKept() {
        var filter = LateReplyFilter()
        #expect(Self.filtered("\u{1B}", filter: &filter) == [.escape])
        #expect(Self.filtered("\u{1B}q", filter: &filter) == [.escape, .character("q")])
        #expect(Self.filtered("\u{1B}[?62x", filter: &filter) == Self.keys("\u{1B}[?62x"))
        #expect(Self.filtered("\u{1B}[6~", filter: &filter) == Self.keys("\u{1B}[6~"))
        // An Escape that was a key, followed at once by a reply: the key stays, the reply goes.
        #expect(Self.filtered("\u{1B}\u{1B}[?1;2c", filter: &filter) == [.escape])
        var other = LateReplyFilter()
        #expect([Key.up, .escape, .enter].flatMap { other.accept($0) } + other.release() == [.up, .escape, .enter])
        #expect(!filter.isHolding && !other.isHolding)
    }
}
