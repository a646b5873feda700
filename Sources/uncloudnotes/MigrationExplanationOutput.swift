import Foundation
import ManagedStore
import UnCloudNotesKit

/// `store migrate --dry-run --explain`: the plan as it will run, then each pass's SQL in order,
/// one statement a line-group ending in `;`, with a comment line naming the connection and its
/// file whenever the connection changes (as text), or the same as one JSON object.
struct MigrationExplanationOutput {
    let explanation: MigrationExplanation

    func write(json: Bool) throws {
        if json {
            try printJSON(Report(explanation))
            return
        }
        let plan = explanation.plan
        try StandardOutput.line("plan: \(plan.source.name) -> \(plan.destination.name), \(plan.steps.count.counting("step")) in "
            + "\(explanation.passes.count.counting("pass", plural: "passes"))")
        for (index, step) in plan.steps.enumerated() {
            try StandardOutput.line("  \(index + 1). \(step.source.name) -> \(step.destination.name): \(step.kindDescription)")
        }
        try StandardOutput.line("backup: \(TerminalText.field(explanation.backup)): \(explanation.backupMethod)")
        for (number, pass) in explanation.passes.enumerated() {
            try StandardOutput.line("")
            try StandardOutput.line("-- pass \(number + 1): \(Self.describe(pass, of: plan))")
            try StandardOutput.line("-- reads \(TerminalText.field(pass.reads)), writes \(TerminalText.field(pass.writes))")
            if !pass.functions.isEmpty {
                try StandardOutput.line("-- functions written in Swift, registered on the connection that writes: "
                    + pass.functions.map(\.name).joined(separator: ", "))
            }
            if let statistics = pass.statistics {
                try StandardOutput.line("-- on a scratch copy: " + MigrationStatisticsText.summary(statistics, plan: plan))
            }
            var connection: Int?
            for statement in pass.statements {
                if statement.connection != connection {
                    connection = statement.connection
                    try StandardOutput.line("-- connection \(statement.connection): \(TerminalText.field(statement.file))")
                }
                if let plist = Self.metadataSummary(statement.sql) { try StandardOutput.line("-- Z_PLIST below, a binary property list: \(plist)") }
                try StandardOutput.line(TerminalText.visible(statement.sql) + ";")
            }
        }
        try StandardOutput.line("")
        try StandardOutput.line(explanation.passes.count == 1 && explanation.passes[0].isInPlace
            ? "-- then: the store is the new version (one transaction)"
            : "-- then: the working copy is synced, the store becomes the backup and the working copy is renamed over the store")
    }

    /// What the property list of a statement writing `Z_METADATA` says; nil for other statements.
    static func metadataSummary(_ sql: String) -> String? {
        guard sql.contains("Z_METADATA"), let start = sql.range(of: "x'")?.upperBound,
              let end = sql[start...].firstIndex(of: "'") else { return nil }
        let hex = Array(sql[start..<end].utf8)
        guard hex.count.isMultiple(of: 2) else { return nil }
        var bytes = Data(capacity: hex.count / 2)
        for index in stride(from: 0, to: hex.count, by: 2) {
            guard let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return StoreMetadata(plist: bytes, uuid: "")?.summary
    }

    /// "steps 1-3 (v1 -> v2 -> v3 -> v4) composed into one mapping, copied into a new file" or "step 1 (v1 -> v2) in place".
    static func describe(_ pass: MigrationExplanation.Pass, of plan: MigrationPlan) -> String {
        let versions = ([plan.steps[pass.steps.lowerBound].source.name] + plan.steps[pass.steps].map(\.destination.name)).joined(separator: " -> ")
        let which = pass.steps.count == 1 ? "step \(pass.steps.lowerBound + 1)" : "steps \(pass.steps.lowerBound + 1)-\(pass.steps.upperBound)"
        let how = pass.isInPlace ? "in place, in one transaction"
            : pass.steps.count > 1 ? "fused: their mappings composed into one, copied into a new file" : "copied into a new file"
        return "\(which) (\(versions)) \(how)"
    }

    /// The `--json` form.
    struct Report: Encodable {
        struct Pass: Encodable {
            let firstStep: Int
            let lastStep: Int
            let description: String
            let inPlace: Bool
            let reads: String
            let writes: String
            let functions: [String]
            let statements: [SQLRecorder.Statement]
        }

        let from: String
        let to: String
        let steps: [EventLine.Step]
        let backup: String
        let backupMethod: String
        let passes: [Pass]

        init(_ explanation: MigrationExplanation) {
            let plan = explanation.plan
            from = plan.source.name
            to = plan.destination.name
            steps = plan.steps.map { EventLine.Step(from: $0.source.name, to: $0.destination.name, kind: $0.kindDescription) }
            backup = explanation.backup
            backupMethod = explanation.backupMethod
            passes = explanation.passes.map { pass in
                Pass(firstStep: pass.steps.lowerBound + 1, lastStep: pass.steps.upperBound,
                     description: MigrationExplanationOutput.describe(pass, of: plan), inPlace: pass.isInPlace,
                     reads: pass.reads, writes: pass.writes, functions: pass.functions.map(\.name), statements: pass.statements)
            }
        }
    }
}
