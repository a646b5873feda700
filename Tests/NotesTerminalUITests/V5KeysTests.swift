import Foundation
@testable import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

/// v5's keys through the runner on a temporary store: `p` pins, `s` sorts, `t` picks a tag, `u`
/// undoes a delete, and the editor's tags field.
@Suite("v5 keys: pin, sort, tags, undo", .serialized)
struct V5KeysTests {
    init() { DisplayWidth.configureLocale() }

    /// The sample notes at v5; "Trip" (newest, two images) and "Party 🎉" tagged "fun", Trip also "travel".
    private func harness() throws -> AppHarness {
        let harness = try AppHarness(version: "v5")
        let other = try harness.otherBook()
        let ids = try other.noteIDs()
        try other.changeTags(of: ids[0], adding: ["fun", "travel"])
        try other.changeTags(of: ids[1], adding: ["fun"])
        harness.press(.resize(columns: 80, rows: 24))
        #expect(harness.catchUp(), "the app reads the tags another connection gave")
        return harness
    }

    /// The sample titles the list shows, in the list's order (as the screen shows them).
    private func listed(_ harness: AppHarness) -> [String] {
        let screen = harness.screen()
        return AppHarness.sampleNotes.map(\.0).compactMap { title in screen.range(of: title).map { (title, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    @Test("p pins the selected note: it comes first, marked *; p again unpins")
    func pin() throws {
        let harness = try harness()
        #expect(try harness.titles() == ["Trip", "Party 🎉", "笔记 — 中文标题", "Groceries"])
        harness.press(.end, .character("p"))
        #expect(try harness.titles() == ["Groceries", "Trip", "Party 🎉", "笔记 — 中文标题"])
        let screen = harness.screen()
        let first = try #require(screen.split(separator: "\n").dropFirst().first)
        #expect(first.hasPrefix("›Groceries") && first.contains("[pin]") && screen.contains("note pinned"), "\(screen)")
        #expect(try harness.book.snapshot(of: try harness.book.noteIDs()[0]).pinned)
        harness.press(.character("p"))
        #expect(try harness.titles() == ["Trip", "Party 🎉", "笔记 — 中文标题", "Groceries"])
    }

    @Test("on a long list, p and s read the first page and no count; the rest arrives from the background and the selection follows the note (issue #34)")
    func boundedKeysOnALongList() throws {
        let total = 2 * NotesApp.firstPageSize + 50
        let harness = try AppHarness(version: "v5", notes: (0..<total).map { ("note \($0)", "", 0) })
        harness.press(.resize(columns: 80, rows: 24))
        for _ in 0..<10 { harness.press(.down) }
        // p: the pin is written, then the list is read again: its first page, the notes not counted.
        var events: [NotesEvent] = []
        var queue = harness.app.handle(.character("p"))[...]
        while let effect = queue.popFirst() {
            // A background job (the rest of the list) has no event now: started as the runner starts it.
            guard let event = harness.runner.run(effect) else {
                if case .background(let job) = effect { harness.app.start(job) }
                continue
            }
            events.append(event)
            queue += harness.app.receive(event)
        }
        let page = try #require(events.compactMap { event -> ([NoteID], Int?, Bool)? in
            if case .listRead(let ids, let total, _, let isComplete) = event { return (ids, total, isComplete) }
            return nil
        }.first)
        #expect(page.0.count == 10 + NotesApp.firstPageSize && page.1 == nil && !page.2, "a read of every note, or a count, on p")
        var screen = harness.screen()
        #expect(screen.split(separator: "\n").dropFirst().first?.hasPrefix("›note \(total - 11)") == true, "the pinned note first, selected: \(screen)")
        #expect(screen.contains("\(total) notes"), "the count stays")
        harness.finishBackgroundWork()
        harness.press(.end)
        #expect(harness.screen().contains("›note 0"), "the rest of the list arrived")
        harness.press(.home, .character("p"))
        harness.finishBackgroundWork()
        // A note at row 150 pinned, then unpinned from the top: it goes back past the first page
        // (rows 0-99), and the selection follows it once the rest arrives.
        harness.press(.home)
        for _ in 0..<150 { harness.press(.down) }
        harness.press(.character("p"))
        harness.finishBackgroundWork()
        harness.press(.home, .character("p"))
        #expect(harness.app.state.listScreen.pendingSelection != nil, "the unpinned note is past the first page")
        harness.finishBackgroundWork()
        screen = harness.screen()
        #expect(screen.contains("›note \(total - 151)"), "the selection followed the unpinned note: \(screen)")
        // The same, but the user moves meanwhile: the selection stays where the user put it.
        harness.press(.character("p"))
        harness.finishBackgroundWork()
        harness.press(.home, .character("p"), .down)
        harness.finishBackgroundWork()
        screen = harness.screen()
        #expect(screen.contains("›note \(total - 2)"), "the user's own move was overridden: \(screen)")
        // s: the same, in the other order, reading the selection's row and a page more.
        let selected = harness.app.state.listScreen.selected
        let sorted = harness.app.handle(.character("s"))
        guard case .reload(_, _, _, let counting, let firstPage)? = sorted.first else {
            Issue.record("s should read the list again: \(sorted)")
            return
        }
        #expect(!counting && firstPage == selected + NotesApp.firstPageSize)
        // However deep the selection, a key reads at most the limit at once.
        harness.app.state.listScreen.selected = 900_000
        if case .reload(_, _, _, _, let deep) = harness.app.state.reload() {
            #expect(deep == NotesState.firstPageLimit)
        } else {
            Issue.record("reload() should read the list again")
        }
    }

    @Test("the rest of a long list failing to arrive leaves its first page on screen, says why, and is no longer awaited (issue #34)")
    func restOfListFails() throws {
        let total = NotesApp.firstPageSize + 30
        let harness = try AppHarness(version: "v5", notes: (0..<total).map { ("note \($0)", "", 0) })
        harness.press(.resize(columns: 80, rows: 24))
        harness.press(.character("s"))
        #expect(harness.app.isWaitingForBackgroundWork, "the rest of the list is asked of the background")
        // What the background delivers when its read fails, through the one way in.
        _ = harness.runner.perform(harness.app.receive(.searchAnswered([], isComplete: true, failure: "disk I/O error")), on: harness.app)
        let screen = harness.screen(120, 24)
        #expect(screen.contains("only the list's first page is shown: disk I/O error"), "\(screen)")
        #expect(screen.contains("›note \(total - 1)") || screen.contains("›note 0"), "the first page stays listed: \(screen)")
        #expect(!harness.app.isWaitingForBackgroundWork, "nothing is awaited any more")
    }

    @Test("p keeps the note it pins as read and laid out: only its row is read again, never its text or images (issue #34)")
    func pinKeepsTheNote() throws {
        let harness = try harness()
        _ = harness.screen(120, 40)
        let id = try #require(try harness.book.noteIDs().first)
        var queue = harness.app.handle(.character("p"))[...]
        #expect(queue.first == .setPinned(true, id), "p takes the pin from the row on screen: \(queue)")
        while let effect = queue.popFirst() {
            // A background job has no event now: started as the runner starts it.
            guard let event = harness.runner.run(effect) else {
                if case .background(let job) = effect { harness.app.start(job) }
                continue
            }
            queue += harness.app.receive(event)
        }
        let reads = harness.app.prepareFrame()
        #expect(!reads.contains(.readNote(id)), "the pinned note was read again: \(reads)")
        #expect(reads.contains { if case .readRows(let ids) = $0 { ids.contains(id) } else { false } }, "its row, which shows the pin, is read: \(reads)")
        _ = harness.runner.perform(reads, on: harness.app)
        #expect(harness.screen(120, 40).contains("[pin]"))
    }

    @Test("s switches the order between date created and date modified, and the rows show that date")
    func sort() throws {
        let harness = try harness()
        let groceries = try #require(try harness.book.noteIDs().last)
        try harness.otherBook().update(groceries, with: NoteDraft(title: "Groceries", body: "milk, eggs, bread, tea"))
        #expect(harness.catchUp())
        #expect(harness.screen().contains("Notes · by date created"))
        harness.press(.character("s"))
        #expect(harness.screen().contains("Notes · by date modified"))
        #expect(listed(harness).first == "Groceries")
        let modified = try #require(try harness.book.snapshot(of: groceries).dateModified)
        // The harness writes dates as "2026-05-12 06:13" in UTC: the modified day is today's.
        #expect(harness.screen().contains(modified.formatted(.iso8601.year().month().day())))
        harness.press(.character("s"))
        #expect(listed(harness).first == "Trip")
    }

    @Test("t lists the tags with their counts; Enter shows a tag's notes, Esc all of them again")
    func tagPicker() throws {
        let harness = try harness()
        harness.press(.character("t"))
        let picker = harness.screen()
        #expect(picker.contains("›All notes") && picker.contains("fun  (2)") && picker.contains("travel  (1)"), "\(picker)")
        harness.press(.down, .down, .enter)
        #expect(listed(harness) == ["Trip"])
        #expect(harness.screen().contains("tag travel (1)"))
        harness.press(.character("t"), .up, .enter)
        #expect(listed(harness) == ["Trip", "Party 🎉"])
        harness.press(.escape)
        #expect(listed(harness).count == 4)
    }

    @Test("u after d restores the note with its images, tags and identifier; after another change there is nothing to undo")
    func undo() throws {
        let harness = try harness()
        let trip = try harness.book.snapshot(of: try harness.book.noteIDs()[0])
        harness.press(.home, .character("d"), .character("y"))
        #expect(try harness.titles() == ["Party 🎉", "笔记 — 中文标题", "Groceries"])
        #expect(harness.screen().contains("u undoes the delete"))
        harness.press(.character("u"))
        #expect(harness.screen().contains("note restored"))
        let restored = try harness.book.snapshot(of: try harness.book.noteIDs()[0])
        #expect(restored.title == "Trip" && restored.identifier == trip.identifier && restored.tags == ["fun", "travel"])
        #expect(restored.attachments.map(\.imageData) == trip.attachments.map(\.imageData))
        #expect(restored.attachments.map(\.identifier) == trip.attachments.map(\.identifier))
        harness.press(.character("u"))
        #expect(harness.screen().contains("nothing to undo"))

        harness.press(.home, .character("d"), .character("y"), .character("p"))
        harness.press(.character("u"))
        #expect(harness.screen().contains("nothing to undo"), "pinning was a change: the delete is no longer undone")
        #expect(try harness.book.count() == 3)
    }

    @Test("p on a note another program pinned meanwhile (its row stale) changes nothing, says so, and keeps the undo")
    func pinAlreadyPinnedElsewhere() throws {
        let harness = try harness()
        harness.press(.home, .character("d"), .character("y"))
        let selected = try #require(try harness.book.noteIDs().first)
        try harness.otherBook().setPinned(true, of: selected)
        // The app has not looked at the store since: its row still says unpinned, so p asks to pin.
        harness.press(.character("p"))
        let screen = harness.screen()
        #expect(screen.contains("another program pinned this note already"), "\(screen)")
        #expect(screen.contains("[pin]"), "the row read again shows the pin: \(screen)")
        harness.press(.character("u"))
        #expect(harness.screen().contains("note restored"), "nothing changed: the delete can still be undone")
        #expect(try harness.book.count() == 4)
    }

    @Test("p on a row read again after another program pinned the note, while the note's own read is stale, unpins it")
    func unpinWithStaleNoteRead() throws {
        let harness = try harness()
        _ = harness.screen(120, 40)
        let id = try #require(try harness.book.noteIDs().first)
        #expect(harness.app.state.snapshot(of: id) != nil, "the selected note is read for the preview")
        try harness.otherBook().setPinned(true, of: id)
        // The order switched: the list and its rows are read again, and show the pin; the note's
        // own read is as it was.
        harness.press(.character("s"))
        #expect(harness.screen(120, 40).contains("[pin]"))
        harness.press(.home, .character("p"))
        let screen = harness.screen(120, 40)
        #expect(screen.contains("note unpinned"), "\(screen)")
        #expect(try !harness.otherBook().snapshot(of: id).pinned, "the note is unpinned in the store")
        #expect(!screen.contains("[pin]"), "\(screen)")
    }

    @Test("p on a note another program deleted says so and reads the list again, without the note")
    func pinDeletedElsewhere() throws {
        let harness = try harness()
        let ids = try harness.book.noteIDs()
        let selected = try #require(ids.first)
        let title = try harness.book.snapshot(of: selected).title
        #expect(harness.screen(120, 40).contains(title))
        _ = try harness.otherBook().delete(selected)
        harness.press(.home, .character("p"))
        let screen = harness.screen(120, 40)
        #expect(screen.contains("the note was deleted by another program"), "\(screen)")
        #expect(!screen.contains(title), "the list was read again: \(screen)")
        #expect(try harness.book.noteIDs() == Array(ids.dropFirst()))
    }

    @Test("the editor's tags field: Tab from the title, comma-separated names saved with the note")
    func editorTags() throws {
        let harness = try harness()
        harness.press(.end, .character("e"), .tab)
        harness.type("home, errands")
        let editor = harness.screen()
        #expect(editor.contains("Tags:  home, errands"), "\(editor)")
        harness.press(.tab)
        harness.type(" and tea")
        harness.press(.control("s"))
        let groceries = try harness.book.snapshot(of: try #require(try harness.book.noteIDs().last))
        #expect(groceries.tags == ["errands", "home"] && groceries.body.hasSuffix("and tea"))
        harness.press(.escape)
        #expect(harness.screen().contains("#errands #home"))
    }

    @Test("before v5, p, s and t say the version has no pins, order or tags")
    func refusedBeforeV5() throws {
        let harness = try AppHarness()
        for (key, text) in [("p", "have no pins"), ("s", "have no modified dates"), ("t", "have no tags")] {
            harness.press(.character(Character(key)))
            #expect(harness.screen().contains(text), "\(key)")
        }
    }
}

@Suite("v5 screens as text", .serialized)
struct V5ScreenSnapshotTests {
    init() { DisplayWidth.configureLocale() }

    @Test("at 80x24: the list with a pinned note and tags, the editor's tags field, the tag picker, the help")
    func screens() throws {
        let harness = try AppHarness(version: "v5")
        let other = try harness.otherBook()
        let ids = try other.noteIDs()
        try other.changeTags(of: ids[0], adding: ["fun", "travel"])
        try other.setPinned(true, of: ids[3])
        #expect(harness.catchUp())
        #expect(try Snapshot.matches(harness.settledRender(width: 80, height: 24), named: "list-v5-80x24"))
        harness.press(.home, .down, .character("e"), .tab)
        #expect(try Snapshot.matches(harness.render(width: 80, height: 24), named: "editor-v5-80x24"))
        harness.press(.escape, .escape, .character("t"))
        #expect(try Snapshot.matches(harness.render(width: 80, height: 24), named: "tags-v5-80x24"))
        harness.press(.escape, .character("?"))
        let help = harness.screen(100, 60)
        for (key, text) in [("p", "pin or unpin"), ("s", "sort by date created or modified"), ("t", "show the notes of one tag"),
                            ("u", "undo the last delete")] {
            // The key, then its text after the key column's padding (the entry may sit in either column).
            #expect(help.contains(try Regex(" \(key) {2,}\(text)")), "\(key) \(text)")
        }
        #expect(help.contains("title, tags (comma-separated), body"))
    }
}
