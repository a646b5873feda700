import Foundation
import ManagedStore
import UnCloudNotesKit

/// Shows a migration's events: a live progress bar on a terminal, plain lines otherwise, or one
/// JSON object per line for scripts.
final class MigrationReporter {
    enum Style { case terminal, lines, json }

    private let style: Style
    private var lastPercent = -1
    private var barShown = false
    /// Test hook for crash tests: with `UNCLOUDNOTES_KILL_AFTER_EVENTS=N` the process kills itself
    /// (SIGKILL, as a crash would) right after its Nth migration event, an exact moment to interrupt.
    private let killAfterEvents = Int(ProcessInfo.processInfo.environment["UNCLOUDNOTES_KILL_AFTER_EVENTS"] ?? "")
    private var events = 0
    /// The version the store was at, from the plan: the backup holds the store at that version.
    private var sourceVersion: String?

    /// The store being migrated, named in the chapter's "Migrating store …" line.
    private let store: URL

    init(json: Bool, store: URL) {
        style = json ? .json : (isatty(STDOUT_FILENO) == 1 ? .terminal : .lines)
        self.store = store
    }

    func handle(_ event: MigrationEvent) {
        show(event)
        for text in MigrationConsole.lines(for: event, store: store) {
            line(text, ["event": "message", "text": text])
        }
        events += 1
        if events == killAfterEvents {
            fflush(nil)
            kill(getpid(), SIGKILL)
        }
    }

    private func show(_ event: MigrationEvent) {
        switch event {
        case .waitingForLock:
            line("waiting: another process is upgrading this store", ["event": "waiting"])
        case .cleanedLeftovers(let names):
            line("cleaned up after an interrupted migration: \(names.joined(separator: ", "))", ["event": "cleaned", "files": names])
        case .planned(let plan):
            sourceVersion = plan.source.name
            line("plan: \(plan.source.name) -> \(plan.destination.name), \(plan.steps.count.counting("step"))",
                 ["event": "plan", "from": plan.source.name, "to": plan.destination.name,
                  "steps": plan.steps.map { ["from": $0.source.name, "to": $0.destination.name, "kind": $0.kindDescription] }])
            for (index, step) in plan.steps.enumerated() where style != .json {
                print("  \(index + 1). \(step.source.name) -> \(step.destination.name): \(step.kindDescription)")
            }
        case .backupCreated(let path):
            let version = sourceVersion ?? "its old version"
            line("backup of the store as it was before this migration (\(version)), made now: \(path)",
                 ["event": "backup", "path": path, "version": version])
        case .stepStarted(let index, let step):
            lastPercent = -1
            line("step \(index + 1): \(step.source.name) -> \(step.destination.name) (\(step.kindDescription))",
                 ["event": "step", "index": index + 1, "from": step.source.name, "to": step.destination.name, "kind": step.kindDescription])
        case .composedPass:
            break
        case .progress(let step, let fraction, let overall, let detail):
            progress(step: step, fraction: fraction, overall: overall, detail: detail)
        case .stepFinished(let index):
            endBar()
            if style == .json { emit(["event": "stepFinished", "index": index + 1]) }
        case .finished:
            line("the store is up to date", ["event": "finished"])
        }
    }

    private func progress(step: Int, fraction: Double, overall: Double, detail: String?) {
        let percent = Int((fraction * 100).rounded(.down))
        guard percent != lastPercent else { return }
        lastPercent = percent
        switch style {
        case .json:
            emit(["event": "progress", "step": step + 1, "fraction": fraction, "overall": overall, "detail": detail ?? ""])
        case .lines:
            if percent % 10 == 0 { print("progress: step \(step + 1) \(percent)% (all steps \(Int(overall * 100))%)") }
        case .terminal:
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            print("\r  [\(bar)] \(percent)% \(detail ?? "")\u{1B}[K", terminator: "")
            fflush(nil)
            barShown = true
        }
    }

    private func endBar() {
        if barShown { print("") }
        barShown = false
    }

    private func line(_ text: String, _ json: [String: Any]) {
        endBar()
        if style == .json { emit(json) } else { print(text) }
    }

    private func emit(_ object: [String: Any]) {
        // Only strings, numbers and arrays of them are passed, which JSONSerialization always encodes.
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        print(String(decoding: data, as: UTF8.self))
        fflush(nil)
    }
}
