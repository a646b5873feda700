import Foundation

extension TargetVerdicts {
    static let importNotes = 20_000
    static let importLimit = 5.0

    /// Issue 38: importing 20,000 notes under 5 s; linear (per note, the largest size within 1.5x
    /// of the smallest's time per note).
    func imports() -> [String] {
        guard let results = report.imports, !results.isEmpty else {
            return ["Import (issue 38): not measured in this run (--import-sizes was empty)."]
        }
        var lines: [String] = []
        if let twenty = results.first(where: { $0.notes == Self.importNotes }) {
            lines.append("Importing \(twenty.notes) notes under 5 s: \(BenchReport.time(twenty.engine.median)), \(verdict(twenty.engine.median < Self.importLimit)).")
        } else {
            lines.append("Importing \(Self.importNotes) notes under 5 s: not measured in this run (import sizes run: \(results.map { String($0.notes) }.joined(separator: ", "))).")
        }
        if let smallest = results.min(by: { $0.notes < $1.notes }), let largest = results.max(by: { $0.notes < $1.notes }), largest.notes > smallest.notes {
            let perNote = { (result: ImportPaths.Result) in result.engine.median / Double(result.notes) }
            let factor = perNote(largest) / max(perNote(smallest), 1e-12)
            lines.append("Import linear (time per note at \(largest.notes) notes within 1.5x of \(smallest.notes)): \(String(format: "%.2f", factor))x, \(verdict(factor <= 1.5)).")
        }
        return lines
    }
}
