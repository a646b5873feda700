import Foundation
import ManagedStore
import UnCloudNotesKit

/// Shows a migration's events: a live progress bar on a terminal, plain lines otherwise, or one
/// JSON object per line for scripts. Each step is announced when its work starts: the engine
/// announces all the steps of a composed pass at once, before any of them runs, so a step's line
/// waits for the first progress inside it; each pass ends with its numbers (objects read and
/// written and time, per entity mapping). An observer cannot throw: a failed write is kept and
/// reported once the migration is over (`StandardOutput.finish`), never cutting it short.
final class MigrationReporter {
    enum Style { case terminal, lines, json }

    private let style: Style
    private var lastPercent = -1
    private var barShown = false
    /// The version the store was at, from the plan: the backup holds the store at that version.
    private var sourceVersion: String?
    private var plan: MigrationPlan?

    /// The store being migrated, named in the chapter's "Migrating store …" line.
    private let store: URL
    private let encoder = makeReportEncoder()
    private let console = MigrationConsole()
    /// Steps started by the engine whose line is not printed yet, by index.
    private var waitingSteps: [Int: MigrationStep] = [:]
    private let started = Date()

    init(json: Bool, store: URL) {
        style = json ? .json : (isatty(STDOUT_FILENO) == 1 ? .terminal : .lines)
        self.store = store
    }

    func handle(_ event: MigrationEvent) {
        show(event)
        for text in console.lines(for: event, store: store) {
            line(text, EventLine(event: "message", text: text))
        }
    }

    private func show(_ event: MigrationEvent) {
        switch event {
        case .waitingForLock:
            line("waiting: another process is upgrading this store", EventLine(event: "waiting"))
        case .cleanedLeftovers(let names):
            line("cleaned up after an interrupted migration: \(names.joined(separator: ", "))", EventLine(event: "cleaned", files: names))
        case .planned(let plan):
            sourceVersion = plan.source.name
            self.plan = plan
            line("plan: \(plan.source.name) -> \(plan.destination.name), \(plan.steps.count.counting("step"))",
                 EventLine(event: "plan", from: plan.source.name, to: plan.destination.name,
                           steps: plan.steps.map { EventLine.Step(from: $0.source.name, to: $0.destination.name, kind: $0.kindDescription) }))
            for (index, step) in plan.steps.enumerated() where style != .json {
                StandardOutput.writeKeepingFailure("  \(index + 1). \(step.source.name) -> \(step.destination.name): \(step.kindDescription)\n")
            }
        case .backupCreated(let path, _):
            let version = sourceVersion ?? "its old version"
            line("backup of the store as it was before this migration (\(version)), made now: \(path)",
                 EventLine(event: "backup", path: path, version: version))
        case .stepStarted(let index, let step):
            waitingSteps[index] = step
        case .composedPass, .warning:
            // Said by the console lines `handle` prints.
            break
        case .progress(let step, let fraction, let overall, let detail):
            announceSteps(through: step)
            progress(step: step, fraction: fraction, overall: overall, detail: detail)
        case .passFinished(let statistics):
            announceSteps(through: statistics.steps.upperBound - 1)
            line(MigrationStatisticsText.summary(statistics, plan: plan), EventLine(statistics))
            for text in MigrationStatisticsText.mappingLines(statistics) where style != .json {
                StandardOutput.writeKeepingFailure("  \(text)\n")
            }
        case .stepFinished(let index):
            announceSteps(through: index)
            endBar()
            if style == .json { emit(EventLine(event: "stepFinished", index: index + 1)) }
        case .indexingText(let fraction):
            // Its start and end are said by the console lines `handle` prints.
            if fraction == 0 { lastPercent = -1 }
            progress(of: "the search index", fraction: fraction, json: EventLine(event: "indexing", fraction: fraction), detail: nil)
        case .textIndexed(let notes, let seconds):
            endBar()
            if style == .json { emit(EventLine(event: "indexed", seconds: seconds, rowsWritten: notes)) }
        case .finished:
            let seconds = Date().timeIntervalSince(started)
            line("the store is up to date (\(String(format: "%.1f", seconds)) s)", EventLine(event: "finished", seconds: seconds))
        }
    }

    /// Prints the line of each waiting step up to `index`, in order: the work has reached it.
    private func announceSteps(through index: Int) {
        for (waiting, step) in waitingSteps.sorted(by: { $0.key < $1.key }) where waiting <= index {
            waitingSteps[waiting] = nil
            lastPercent = -1
            line("step \(waiting + 1): \(step.source.name) -> \(step.destination.name) (\(step.kindDescription))",
                 EventLine(event: "step", from: step.source.name, to: step.destination.name, index: waiting + 1, kind: step.kindDescription))
        }
    }

    private func progress(step: Int, fraction: Double, overall: Double, detail: String?) {
        progress(of: "step \(step + 1)", fraction: fraction, overall: overall,
                 json: EventLine(event: "progress", step: step + 1, fraction: fraction, overall: overall, detail: detail ?? ""), detail: detail)
    }

    /// A bar on a terminal, a line every 10% otherwise, a JSON line per percent: of a step
    /// (with the whole plan's `overall`) or of the search index.
    private func progress(of what: String, fraction: Double, overall: Double? = nil, json: EventLine, detail: String?) {
        let percent = Int((fraction * 100).rounded(.down))
        guard percent != lastPercent else { return }
        lastPercent = percent
        switch style {
        case .json:
            emit(json)
        case .lines:
            let all = overall.map { " (all steps \(Int($0 * 100))%)" } ?? ""
            if percent % 10 == 0 { StandardOutput.writeKeepingFailure("progress: \(what) \(percent)%\(all)\n") }
        case .terminal:
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            StandardOutput.writeKeepingFailure("\r  [\(bar)] \(percent)% \(detail ?? "")\u{1B}[K", flushing: true)
            barShown = true
        }
    }

    /// Ends a progress bar's line, so what is printed next (an error on stderr) starts a line of its own.
    func endBar() {
        if barShown { StandardOutput.writeKeepingFailure("\n") }
        barShown = false
    }

    private func line(_ text: String, _ json: EventLine) {
        endBar()
        if style == .json {
            emit(json)
        } else {
            StandardOutput.writeKeepingFailure(text + "\n")
        }
    }

    private func emit(_ line: EventLine) {
        // An event line holds strings and numbers only, which the encoder always encodes.
        guard let data = try? encoder.encode(line) else { return }
        StandardOutput.writeKeepingFailure(String(decoding: data, as: UTF8.self) + "\n", flushing: true)
    }
}

/// One `--json` line of a migration: the event's name and the fields it has (absent ones are left out).
struct EventLine: Encodable {
    struct Step: Encodable {
        let from: String
        let to: String
        let kind: String
    }

    let event: String
    var files: [String]? = nil
    var from: String? = nil
    var to: String? = nil
    var steps: [Step]? = nil
    var path: String? = nil
    var version: String? = nil
    var index: Int? = nil
    var kind: String? = nil
    var text: String? = nil
    var step: Int? = nil
    var fraction: Double? = nil
    var overall: Double? = nil
    var detail: String? = nil
    var seconds: Double? = nil
    var firstStep: Int? = nil
    var lastStep: Int? = nil
    var rowsRead: Int? = nil
    var rowsWritten: Int? = nil
    var inPlace: Bool? = nil
    var entityMappings: [Mapping]? = nil

    /// An entity mapping's numbers in a `passFinished` line.
    struct Mapping: Encodable {
        let name: String
        let rowsRead: Int
        let rowsWritten: Int
        let seconds: Double
    }
}

extension EventLine {
    /// `passFinished`: the pass's steps (numbered from 1), objects read and written, time, and each entity mapping's.
    init(_ statistics: MigrationStatistics) {
        self.init(event: "passFinished", seconds: statistics.seconds, firstStep: statistics.steps.lowerBound + 1,
                  lastStep: statistics.steps.upperBound, rowsRead: statistics.rowsRead, rowsWritten: statistics.rowsWritten,
                  inPlace: statistics.isInPlace,
                  entityMappings: statistics.entityMappings.map { Mapping(name: $0.name, rowsRead: $0.rowsRead, rowsWritten: $0.rowsWritten,
                                                                          seconds: $0.seconds) })
    }
}
