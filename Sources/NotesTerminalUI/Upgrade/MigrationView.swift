import Foundation
import ManagedStore
import UnCloudNotesKit

/// What the migration screen shows while the store upgrades at launch: the plan, a progress bar
/// per step, the time it has taken, the chapter's console lines (wrapped, and scrolled with the
/// arrows and pages), and on failure or cancellation what happened and what to do.
public struct MigrationScreenState {
    public var plan: MigrationPlan?
    public var stepFractions: [Double] = []
    public var lines: [String] = []
    public var backupPath: String?
    public var failure: String?
    public var finished = false
    public var storePath: String
    /// Seconds since the upgrade started; the screen stops counting once it finished.
    public var elapsed: TimeInterval = 0
    /// Ctrl-C was pressed: `UpgradeCancelQuestion` is asked (the upgrade waits meanwhile).
    public var asking = false
    /// The user said yes: the upgrade stops at its next check.
    public var cancelling = false
    /// The upgrade stopped at the user's request, the store as it was.
    public var cancelled = false
    /// The log's first line shown; nil follows its end as lines arrive.
    public var logTop: Int?
    /// What each step of the plan changes (`ModelDiff`), by step.
    public var stepChanges: [[String]] = []
    /// The step the work is in, for showing what it changes; nil once the upgrade is over.
    public var runningStep: Int?
    /// `?` shows the kinds of steps above the log.
    public var showsStepKinds = false
    /// Steps run together as one pass of a composed mapping (`.composedPass`), by index: a step
    /// that could run in place alone does not when it is part of one, and the screen says so.
    public var composedPasses: [ClosedRange<Int>] = []
    /// The search index's build after the steps (`.indexingText`), 0...1; nil before it starts.
    public var indexFraction: Double?
    private let console = MigrationConsole()

    public init(storePath: String) {
        self.storePath = storePath
    }

    public mutating func apply(_ event: MigrationEvent) {
        switch event {
        case .planned(let plan):
            self.plan = plan
            stepFractions = plan.steps.map { _ in 0 }
            stepChanges = plan.steps.map { step in
                ModelDiff(from: step.source, to: step.destination).changes.map { "\($0.isInferable ? "+" : "!") \($0.description)" }
            }
        case .progress(let step, let fraction, _, _):
            if step < stepFractions.count { stepFractions[step] = fraction }
            runningStep = step
        case .passFinished(let statistics):
            lines.append(MigrationStatisticsText.summary(statistics, plan: plan))
            lines += MigrationStatisticsText.mappingLines(statistics).map { "  " + $0 }
        case .stepFinished(let index):
            if index < stepFractions.count { stepFractions[index] = 1 }
        case .backupCreated(let path, _):
            backupPath = path
        case .waitingForLock:
            lines.append("Another UnCloudNotes is upgrading this store; waiting for it…")
        case .cleanedLeftovers(let names):
            lines.append("Cleaned up after an interrupted upgrade: \(names.joined(separator: ", "))")
        case .indexingText(let fraction):
            indexFraction = fraction
            runningStep = nil
        case .textIndexed:
            // Said by the console lines added below.
            indexFraction = 1
        case .finished:
            finished = true
            runningStep = nil
        case .composedPass(let first, let last, _):
            if let steps = plan?.steps, let start = steps.firstIndex(where: { $0.source.name == first.source.name }),
               let end = steps.firstIndex(where: { $0.destination.name == last.destination.name }), start <= end {
                composedPasses.append(start...end)
            }
        case .stepStarted, .warning:
            // Shown through the console lines added below.
            break
        }
        lines += console.lines(for: event, store: URL(fileURLWithPath: storePath))
    }

    /// The heading: a store that could not be opened was not upgraded (a garbage file or a newer
    /// store fails before any plan); only a failure after planning is a failed upgrade.
    var heading: String {
        if cancelled { return "The upgrade was cancelled" }
        if failure != nil { return plan == nil ? "Cannot open the store" : "The upgrade failed" }
        return finished ? "Your notes were upgraded" : "Upgrading your notes"
    }

    /// Scrolls the log for the arrows, pages, Home and End; false for any other key.
    public mutating func scrollLog(_ key: Key, width: Int, height: Int) -> Bool {
        let (log, room) = logLayout(width: width, height: height)
        let last = max(0, log.count - room)
        let top = min(logTop ?? last, last)
        let moved: Int
        switch key {
        case .up: moved = top - 1
        case .down: moved = top + 1
        case .pageUp: moved = top - max(1, room)
        case .pageDown: moved = top + max(1, room)
        case .home: moved = 0
        case .end: moved = last
        default: return false
        }
        // Back at the end, the log follows new lines again.
        logTop = moved >= last ? nil : max(0, moved)
        return true
    }

    public func render(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        let header = headerLines(width: width)
        for (row, line) in header.prefix(height).enumerated() {
            buffer.put(line.text, row: row, column: 0, style: line.style)
        }
        let (log, room) = logLayout(width: width, height: height)
        let last = max(0, log.count - room)
        let top = min(logTop ?? last, last)
        for (row, text) in log.dropFirst(top).prefix(room).enumerated() {
            buffer.put(text, row: header.count + row, column: 0, style: .dim)
        }
        if height > header.count {
            let (hint, style) = hintLine(scrolls: log.count > room)
            buffer.put(CellBuffer.truncate(hint, to: width), row: height - 1, column: 0, style: style)
        }
        return buffer
    }

    /// The console lines wrapped to the width, and the rows they have below the header and above
    /// the hint line.
    private func logLayout(width: Int, height: Int) -> (lines: [String], room: Int) {
        let wrapped = lines.flatMap { TextWrapper.wrap(Array($0), width: width).map(\.text) }
        return (wrapped, max(0, height - headerLines(width: width).count - 1))
    }

    /// The changes of the running step shown at most: the log needs the rest of the screen.
    private static let changesShown = 6

    /// The last row: the question, or the keys that work now.
    private func hintLine(scrolls: Bool) -> (String, CellStyle) {
        if asking { return (UpgradeCancelQuestion.text, [.reverse, .bold]) }
        let scrolling = (scrolls ? "  ↑↓ PgUp PgDn scroll the log" : "") + (plan == nil ? "" : "  ? step kinds")
        if cancelling && !finished && failure == nil && !cancelled { return ("Cancelling: the store is left as it was…", .bold) }
        if failure != nil || cancelled { return ("any key quit" + scrolling, .dim) }
        if finished { return ("any key your notes" + scrolling, .dim) }
        return (UpgradeCancelQuestion.hint + scrolling, .dim)
    }

    /// Everything above the log, wrapped (a reason or a step must be read whole, even at 80 columns).
    /// How the step runs: its kind, or when it is part of a composed pass, that it runs there
    /// (an in-place step then is not in place: the log's one composed pass is what ran).
    private func howItRuns(_ index: Int, _ step: MigrationStep) -> String {
        guard let pass = composedPasses.first(where: { $0.contains(index) }), pass.count > 1 else { return step.kindDescription }
        let kind = if case .inPlace = step.kind { "inferred" } else { step.kindDescription }
        return "\(kind), in one composed pass with steps \(pass.lowerBound + 1)-\(pass.upperBound + 1)"
    }

    private func headerLines(width: Int) -> [(text: String, style: CellStyle)] {
        var header: [(text: String, style: CellStyle)] = []
        func line(_ text: String, _ style: CellStyle = []) {
            header += TextWrapper.wrap(Array(text), width: width).map { ($0.text, style) }
        }
        line(heading, .bold)
        line(CellBuffer.truncateMiddle("store: \(storePath)", to: width), .dim)
        line("")
        if let plan {
            let steps = plan.steps.count == 1 ? "1 step" : "\(plan.steps.count) steps"
            let time = String(format: "%.1f s", elapsed)
            line("\(plan.source.name) → \(plan.destination.name), \(steps) · \(finished ? "done in \(time)" : time)")
            func bar(_ fraction: Double, _ label: String) {
                let barWidth = max(10, min(30, width - 60))
                let filled = Int(fraction * Double(barWidth))
                let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
                line("\(bar) \(String(format: "%3d", Int(fraction * 100)))%  \(label)")
            }
            for (index, step) in plan.steps.enumerated() {
                bar(index < stepFractions.count ? stepFractions[index] : 0, "\(step.source.name) → \(step.destination.name): \(howItRuns(index, step))")
            }
            if let indexFraction { bar(indexFraction, "search index, built once for searches that answer at once") }
            if let runningStep, !finished, failure == nil, !cancelled, runningStep < stepChanges.count, runningStep < plan.steps.count {
                let step = plan.steps[runningStep]
                line("Step \(runningStep + 1) changes (model diff \(step.source.name) \(step.destination.name)):")
                let changes = stepChanges[runningStep]
                changes.prefix(Self.changesShown).forEach { line("  " + $0, .dim) }
                if changes.count > Self.changesShown { line("  … and \(changes.count - Self.changesShown) more", .dim) }
                if changes.isEmpty { line("  nothing Core Data sees in entities or properties", .dim) }
            }
            line("")
        }
        if showsStepKinds {
            MigrationStepKinds.lines.forEach { line($0) }
            line("")
        }
        if let backupPath, !cancelled { line(CellBuffer.truncateMiddle("backup: \(backupPath)", to: width), .dim) }
        if cancelled {
            line("")
            line("Your store is unchanged: nothing of the upgrade was kept.", .bold)
            line("Press any key to quit; the app upgrades the store the next time it opens it.")
        } else if let failure {
            line("")
            line("Error: \(failure)", .bold)
            line(plan == nil ? "Nothing was changed." : "Your store is unchanged\(backupPath.map { "; a copy is at \($0)" } ?? "").")
            line("To see what is wrong, run this (and see docs/migration.md):")
            line("  uncloudnotes store info --store \(ShellQuoting.quoted(storePath))")
            line("Press any key to quit.")
        } else if finished {
            line("Done: press any key to see your notes.", .bold)
            line("")
        }
        return header
    }
}
