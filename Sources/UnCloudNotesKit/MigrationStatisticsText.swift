import Foundation
import ManagedStore

/// How a finished pass's numbers are said, the same on the command line and the migration screen:
/// "step 2 (v2 -> v3) done in 0.04 s: 120 objects read, 240 written", then a line per entity
/// mapping with its objects and time.
public enum MigrationStatisticsText {
    public static func summary(_ statistics: MigrationStatistics, plan: MigrationPlan?) -> String {
        let steps = statistics.steps
        let pass = steps.count == 1 ? "" : ", one pass"
        let versions = plan.map { plan in
            " (" + ([plan.steps[steps.lowerBound].source.name] + plan.steps[steps].map(\.destination.name)).joined(separator: " -> ") + pass + ")"
        } ?? pass
        let which = steps.count == 1 ? "step \(steps.lowerBound + 1)" : "steps \(steps.lowerBound + 1)-\(steps.upperBound)"
        let work = statistics.isInPlace
            ? "in place, \(statistics.rowsWritten.counting("row")) rewritten"
            : "\(statistics.rowsRead.counting("object")) read, \(statistics.rowsWritten) written"
        return "\(which)\(versions) done in \(seconds(statistics.seconds)): \(work)"
    }

    /// One line per entity mapping: "NoteToNote: 120 read, 120 written, 0.02 s (6,000 a second)".
    public static func mappingLines(_ statistics: MigrationStatistics) -> [String] {
        statistics.entityMappings.map { mapping in
            let rate = mapping.seconds > 0 && mapping.rowsWritten > 0 ? ", \(Int(Double(mapping.rowsWritten) / mapping.seconds)) a second" : ""
            return "\(mapping.name): \(mapping.rowsRead) read, \(mapping.rowsWritten) written, \(seconds(mapping.seconds))\(rate)"
        }
    }

    public static func seconds(_ value: Double) -> String {
        String(format: value < 10 ? "%.3f s" : "%.1f s", value)
    }
}
