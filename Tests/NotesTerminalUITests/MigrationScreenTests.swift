import Foundation
import ManagedStore
@testable import NotesTerminalUI
import Testing
import UnCloudNotesKit

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

    @Test("while a step runs, the screen says what it changes (model diff); when a pass is done, the log gets its numbers")
    func runningStepChangesAndStatistics() throws {
        let model = try UnCloudNotesModel.load()
        let plan = try MigrationPlanner.plan(from: model.versions[1], to: model.versions[2], in: model,
                                             mappingModels: try UnCloudNotesModel.loadMappingModels(for: model))
        var state = MigrationScreenState(storePath: "/tmp/n.sqlite")
        state.apply(.planned(plan))
        state.apply(.progress(step: 0, stepFraction: 0.5, overallFraction: 0.5, detail: nil))
        let running = text(state, 100, 30).joined(separator: "\n")
        #expect(running.contains("Step 1 changes (model diff UnCloudNotesDataModel v2 UnCloudNotesDataModel v3):"))
        #expect(running.contains("! attribute Note.image moved to new entity Attachment"), "\(running)")
        state.apply(.passFinished(MigrationStatistics(steps: 0..<1, seconds: 0.5, entityMappings: [
            .init(name: "NoteToNote", rowsRead: 12, rowsWritten: 12, seconds: 0.25)])))
        state.apply(.stepFinished(index: 0))
        state.apply(.finished)
        let done = text(state, 100, 30).joined(separator: " ")
        #expect(!done.contains("Step 1 changes"))
        #expect(done.contains("step 1 (UnCloudNotesDataModel v2 -> UnCloudNotesDataModel v3) done in 0.500 s: 12 objects read, 12 written"), "\(done)")
        #expect(done.contains("  NoteToNote: 12 read, 12 written, 0.250 s, 48 a second"))
    }

    @Test("a step that could run in place, composed into one pass with the others, is not called in place (issue #38)")
    func composedStepsSayWhatRan() throws {
        let model = try UnCloudNotesModel.load()
        let plan = try MigrationPlanner.plan(from: model.versions[0], to: model.versions[3], in: model,
                                             mappingModels: try UnCloudNotesModel.loadMappingModels(for: model))
        var state = MigrationScreenState(storePath: "/tmp/n.sqlite")
        state.apply(.planned(plan))
        #expect(text(state, 140, 30).joined(separator: "\n").contains("UnCloudNotesDataModel v2: in place"), "planned: the step's own kind")
        let last = try #require(plan.steps.last)
        guard case .mappingModel(let mapping) = last.kind else { Issue.record("v3 -> v4 has a mapping model"); return }
        state.apply(.composedPass(first: plan.steps[0], last: last, mapping: mapping))
        let running = text(state, 140, 30).joined(separator: "\n")
        #expect(!running.contains(": in place"), "\(running)")
        #expect(running.contains("UnCloudNotesDataModel v2: inferred, in one composed pass with steps 1-3"), "\(running)")
    }

    @Test("after the steps, the search index's stage has its own bar and log lines, so the wait is seen (issue #38, bug 7)")
    func searchIndexStage() throws {
        let model = try UnCloudNotesModel.load()
        let plan = try MigrationPlanner.plan(from: model.versions[0], to: model.versions[1], in: model, mappingModels: [])
        var state = MigrationScreenState(storePath: "/tmp/n.sqlite")
        state.apply(.planned(plan))
        state.apply(.stepFinished(index: 0))
        #expect(!text(state, 100, 30).contains { $0.contains("search index") })
        state.apply(.indexingText(fraction: 0))
        state.apply(.indexingText(fraction: 0.4))
        let building = text(state, 100, 30).joined(separator: "\n")
        #expect(building.contains(" 40%  search index"), "\(building)")
        #expect(building.contains("Building the search index beside the store"), "\(building)")
        state.apply(.textIndexed(objects: 12, seconds: 0.25))
        state.apply(.finished)
        let done = text(state, 100, 30).joined(separator: "\n")
        #expect(done.contains("100%  search index") && done.contains("Search index ready: 12 notes indexed in 0.2 s"), "\(done)")
    }
}
