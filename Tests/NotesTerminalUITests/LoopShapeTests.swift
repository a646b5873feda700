import Foundation
import ManagedStore
@testable import NotesTerminalUI
import Testing
import TestSupport
import UnCloudNotesKit

/// The app's loop in the Elm shape: keys and events change the state and return effects, frames
/// are drawn from the state, and only the runner touches the store. A store that records every
/// statement it runs (`SQLRecorder`) shows it.
@Suite("The loop: pure keys, events and frames; reads are effects")
struct LoopShapeTests {
    init() { DisplayWidth.configureLocale() }

    /// A harness whose store records every statement, and a loop run by hand that checks that
    /// nothing but the runner makes the store run one.
    private struct CountedLoop {
        let recorder = SQLRecorder()
        let harness: AppHarness
        /// Statements run while the app handled a key or event or drew a frame: none is allowed.
        private(set) var byApp = 0
        /// Statements the runner ran: the reads and writes the app asked for.
        private(set) var byRunner = 0
        /// Every effect the app returned.
        private(set) var effects: [NotesEffect] = []

        init(version: String = "v4") throws {
            var options = StoreOptions()
            options.sqlRecorder = recorder
            harness = try AppHarness(version: version, options: options)
        }

        private mutating func counted<T>(byApp: Bool, _ body: () -> T) -> T {
            let before = recorder.statements.count
            let result = body()
            if byApp { self.byApp += recorder.statements.count - before } else { byRunner += recorder.statements.count - before }
            return result
        }

        /// The terminal loop's work for a key: its effects run, each event taken in, then the
        /// frame's reads, then the frame drawn.
        mutating func press(_ key: Key, size: TerminalSize = TerminalSize(columns: 80, rows: 24)) -> [String] {
            let app = harness.app, runner = harness.runner
            var queue = counted(byApp: true) { app.handle(key) }
            repeat {
                while !queue.isEmpty {
                    let effect = queue.removeFirst()
                    effects.append(effect)
                    if case .background(let job) = effect {
                        // Started on its queue (ManualExecutor: run by hand), as the runner does.
                        counted(byApp: false) { app.start(job) }
                        continue
                    }
                    guard let event = counted(byApp: false, { runner.run(effect) }) else { continue }
                    queue += counted(byApp: true) { app.receive(event) }
                }
                queue = counted(byApp: true) { app.prepareFrame() }
            } while !queue.isEmpty
            return counted(byApp: true) { app.frame().render().lines }
        }
    }

    @Test("handling keys and events and drawing frames run no statement; the runner runs the reads they ask for")
    func keysEventsAndFramesReadNothing() throws {
        var loop = try CountedLoop()
        let keys: [Key] = [.resize(columns: 120, rows: 40), .down, .enter, .right, .pageDown, .character("?"), .escape, .escape,
                           .character("/"), .character("t"), .escape, .end, .character("e"), .tab, .character("!"), .control("s"),
                           .escape, .character("d"), .character("n"), .character("a"), .tab, .escape, .character("q")]
        var shown: [String] = []
        for key in keys { shown = loop.press(key) }
        #expect(loop.byApp == 0, "the app ran statements itself")
        #expect(loop.byRunner > 0, "the recorder counts the runner's reads")
        #expect(loop.effects.contains(.readNote(try #require(try loop.harness.book.noteIDs().last))), "the notes shown are read as effects")
        #expect(loop.effects.contains { if case .checkStore = $0 { true } else { false } }, "Ctrl-S checks the store through the runner")
        #expect(try loop.harness.book.snapshot(of: try #require(try loop.harness.book.noteIDs().last)).body == "milk, eggs, bread!")
        #expect(shown.joined().contains("Groceries"))
    }

    @Test("after the app's own text edit only that note is read again: the IDs are not, and its image's preview stays")
    func ownEditInvalidatesOneNote() throws {
        var loop = try CountedLoop()
        let harness = loop.harness
        // Trip, the newest note, is selected; its latest image shows beside the list.
        _ = harness.settledRender(width: 80, height: 24)
        #expect(harness.app.state.previews.madeCount == 1)
        for key: Key in [.character("e"), .end, .character("!"), .control("s"), .escape] { _ = loop.press(key) }
        #expect(!loop.effects.contains { if case .reload = $0 { true } else { false } }, "the list's IDs are not read again")
        #expect(loop.effects.contains(.readNote(try #require(try harness.book.noteIDs().first))), "the note edited is read again")
        let screen = harness.screen()
        #expect(screen.contains("›Trip!"), "its row is read again")
        #expect(!screen.contains("(loading the image)"), "the preview of its unchanged image is kept")
        // The one asked for is the detail view's, at its own size: the save shows the note.
        #expect(harness.previewing.pendingCount == 1)
        #expect(harness.app.state.previews.madeCount == 1)
    }

    @Test("an edit that can move the note (v5's modified order) reads the list again")
    func changesThatMoveOrRedraw() throws {
        var loop = try CountedLoop(version: "v5")
        let harness = loop.harness
        for key: Key in [.character("s"), .character("G"), .character("e"), .end, .character("!"), .control("s")] { _ = loop.press(key) }
        let reloads = loop.effects.filter { if case .reload = $0 { true } else { false } }
        #expect(reloads.count == 2, "the order changed, then the edit moved the note to the top")
        #expect(harness.screen().contains("Groceries!"))
    }

    @Test("a new app reads nothing; launch's reads are effects; its background work waits for the first screen")
    func launchIsEffects() throws {
        let recorder = SQLRecorder()
        var options = StoreOptions()
        options.sqlRecorder = recorder
        let harness = try AppHarness(notes: (0..<(NotesApp.launchRows + 3)).map { ("note \($0)", "", 0) }, options: options)
        func newApp() -> NotesApp {
            NotesApp(book: harness.book, storePath: "/srv/notes.sqlite", versionLabel: "v4", colors: ColorSupport(depth: .none),
                     dates: AppHarness.dates, searchExecutor: ManualExecutor(), indexExecutor: ManualExecutor(),
                     previewExecutor: ManualExecutor(), syncExecutor: ManualExecutor())
        }
        func isBackground(_ effect: NotesEffect) -> Bool { if case .background = effect { true } else { false } }
        let before = recorder.statements.count
        let app = newApp()
        #expect(recorder.statements.count == before, "the app read the store as it was made")
        let launch = app.launch()
        #expect(launch.first == .checkStore(knownVersion: nil), "the store's version first, so a change after it is noticed")
        #expect(launch.contains { effect in
            if case .reload(_, _, _, counting: true, firstPage: NotesApp.launchRows) = effect { true } else { false }
        }, "the first rows and the count")
        #expect(!launch.contains(where: isBackground))
        var asked: [NotesEffect] = []
        for effect in launch {
            guard let event = harness.runner.run(effect) else { continue }
            asked += app.receive(event)
        }
        #expect(!asked.contains(where: isBackground), "nothing starts in the background before the first screen: \(asked)")
        harness.runner.perform(asked, on: app)
        #expect(app.frame().render().lines.joined().contains("note \(NotesApp.launchRows + 2)"))
        let afterPaint = app.receive(.frameDrawn)
        #expect(afterPaint.contains(.background(.refreshSyncStatus)))
        #expect(afterPaint.contains { if case .background(.readRestOfList) = $0 { true } else { false } }, "the rest of the list")
        #expect(!afterPaint.contains(.background(.sync)), "no sync unless the config file asks for one at launch")
        #expect(app.receive(.frameDrawn).isEmpty, "held work starts once")

        let syncing = newApp()
        _ = syncing.launch(syncing: true)
        #expect(syncing.receive(.frameDrawn).contains(.background(.sync)))

        // Drivers that draw through the runner (the benchmark) release it too: nothing waits forever.
        let drawn = newApp()
        harness.runner.perform(drawn.launch(), on: drawn)
        _ = harness.runner.render(drawn, width: 80, height: 24)
        #expect(drawn.receive(.frameDrawn).isEmpty, "the runner's frame sent .frameDrawn: the held work started")
    }

    /// A terminal that records what the runner asks of it.
    private final class RecordingTerminal: TerminalEffects {
        var edited: [String] = []
        var opened: [String] = []

        func edit(_ text: String) -> NotesEvent {
            edited.append(text)
            return .edited(text + ", jam")
        }

        func openImage(_ data: Data, named name: String) -> NotesEvent {
            opened.append(name)
            return .imageOpened("opened \(name)")
        }
    }

    @Test("the editor and the viewer run through the runner's terminal, their outcome back as events; only quit is left to the loop")
    func terminalEffectsThroughTheRunner() throws {
        let harness = try AppHarness(notes: [("Groceries", "milk", 0), ("Trip", "tent", 1)])
        let terminal = RecordingTerminal()
        let runner = NotesEffectRunner(book: harness.book, terminal: terminal)
        let app = harness.app
        #expect(runner.perform(app.handle(.enter), on: app).isEmpty)
        #expect(runner.perform(app.handle(.character("o")), on: app).isEmpty, "the viewer is the runner's")
        #expect(terminal.opened.count == 1)
        #expect(runner.render(app, width: 80, height: 24).lines.joined().contains("opened note-"))
        for key in [Key.escape, .down, .character("e"), .tab] { runner.perform(app.handle(key), on: app) }
        #expect(runner.perform(app.handle(.control("e")), on: app).isEmpty, "the editor is the runner's")
        #expect(terminal.edited == ["milk"])
        runner.perform(app.handle(.control("s")), on: app)
        #expect(try harness.book.noteIDs().map { try harness.book.snapshot(of: $0).body }.contains("milk, jam"))
        #expect(runner.perform(app.handle(.escape), on: app).isEmpty)
        #expect(runner.perform(app.handle(.character("q")), on: app) == [.quit])
    }

    @Test("when launch's store check failed, the next idle check reads everything again: a change made meanwhile is not missed")
    func failedLaunchCheck() throws {
        let harness = try AppHarness()
        let app = NotesApp(book: harness.book, storePath: "/srv/notes.sqlite", versionLabel: "v4", colors: ColorSupport(depth: .none),
                           dates: AppHarness.dates, searchExecutor: ManualExecutor(), indexExecutor: ManualExecutor(),
                           previewExecutor: ManualExecutor(), syncExecutor: ManualExecutor())
        for effect in app.launch() {
            // The check fails; the list is read.
            let event = if case .checkStore = effect { NotesEvent.storeChecked(.failure(.store(underlying: CancellationError()))) }
                        else { try #require(harness.runner.run(effect)) }
            harness.runner.perform(app.receive(event), on: app)
        }
        #expect(harness.runner.render(app, width: 80, height: 24).lines.joined().contains("cannot read the store: "))
        let groceries = try #require(try harness.book.noteIDs().last)
        try harness.otherBook().update(groceries, with: NoteDraft(title: "Groceries for Sunday", body: "milk"))
        harness.runner.perform(app.catchUpWithStore(), on: app)
        #expect(harness.runner.render(app, width: 80, height: 24).lines.joined().contains("Groceries for Sunday"))
    }
}
