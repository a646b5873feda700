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
        #expect(!screen.contains("(loading the image)") && harness.previewing.pendingCount == 0, "the preview of its unchanged image is kept")
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
}
