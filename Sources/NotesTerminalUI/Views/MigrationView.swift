import Foundation
import ManagedStore
import UnCloudNotesKit

/// What the migration screen shows while the store upgrades at launch: the plan, a progress bar
/// per step, the chapter's console lines, and on failure what happened and what to do.
public struct MigrationScreenState {
    public var plan: MigrationPlan?
    public var stepFractions: [Double] = []
    public var lines: [String] = []
    public var backupPath: String?
    public var failure: String?
    public var finished = false
    public var storePath: String

    public init(storePath: String) {
        self.storePath = storePath
    }

    public mutating func apply(_ event: MigrationEvent) {
        switch event {
        case .planned(let plan):
            self.plan = plan
            stepFractions = plan.steps.map { _ in 0 }
        case .progress(let step, let fraction, _, _):
            if step < stepFractions.count { stepFractions[step] = fraction }
        case .stepFinished(let index):
            if index < stepFractions.count { stepFractions[index] = 1 }
        case .backupCreated(let path, _):
            backupPath = path
        case .waitingForLock:
            lines.append("Another UnCloudNotes is upgrading this store; waiting for it…")
        case .cleanedLeftovers(let names):
            lines.append("Cleaned up after an interrupted upgrade: \(names.joined(separator: ", "))")
        case .finished:
            finished = true
        case .stepStarted, .composedPass, .warning:
            // Shown through the console lines added below.
            break
        }
        lines += MigrationConsole.lines(for: event, store: URL(fileURLWithPath: storePath))
    }

    /// The heading: a store that could not be opened was not upgraded (a garbage file or a newer
    /// store fails before any plan); only a failure after planning is a failed upgrade.
    var heading: String {
        if failure != nil { return plan == nil ? "Cannot open the store" : "The upgrade failed" }
        return finished ? "Your notes were upgraded" : "Upgrading your notes"
    }

    public func render(width: Int, height: Int) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        var row = 0
        /// Long lines wrap (a reason or a step must be read whole, even at 80 columns).
        func line(_ text: String, _ style: CellStyle = []) {
            for wrapped in TextWrapper.wrap(Array(text), width: width) where row < height {
                buffer.put(wrapped.text, row: row, column: 0, style: style)
                row += 1
            }
        }
        line(heading, .bold)
        line(CellBuffer.truncateMiddle("store: \(storePath)", to: width), .dim)
        row += 1
        if let plan {
            let steps = plan.steps.count == 1 ? "1 step" : "\(plan.steps.count) steps"
            line("\(plan.source.name) → \(plan.destination.name), \(steps)")
            for (index, step) in plan.steps.enumerated() {
                let fraction = index < stepFractions.count ? stepFractions[index] : 0
                let barWidth = max(10, min(30, width - 60))
                let filled = Int(fraction * Double(barWidth))
                let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled) + "]"
                line("\(bar) \(String(format: "%3d", Int(fraction * 100)))%  \(step.source.name) → \(step.destination.name): \(step.kindDescription)")
            }
            row += 1
        }
        if let backupPath { line(CellBuffer.truncateMiddle("backup: \(backupPath)", to: width), .dim) }
        if let failure {
            row += 1
            line("Error: \(failure)", .bold)
            line(plan == nil ? "Nothing was changed." : "Your store is unchanged\(backupPath.map { "; a copy is at \($0)" } ?? "").")
            line("To see what is wrong, run this (and see docs/migration.md):")
            line("  uncloudnotes store info --store \(ShellQuoting.quoted(storePath))")
            line("Press any key to quit.")
            return buffer
        }
        if finished {
            line("Done: press any key to see your notes.", .bold)
            row += 1
        }
        let room = max(0, height - row)
        for text in lines.suffix(room) { line(text, .dim) }
        return buffer
    }
}

