import Foundation

extension TargetVerdicts {
    static let firstSyncNotes = 10_000
    static let firstSyncLimit = 10.0
    static let oneNoteLimit = 1.0

    /// Issue 25: a first sync of 10,000 notes with 1,000 images under 10 s; a sync of one changed
    /// note under 1 s plus git's own time (plain git's commit, pull and push of one file); memory
    /// flat in the number of notes (the largest size's peak within 1.5x the smallest's).
    func sync() -> [String] {
        guard let results = report.sync, !results.isEmpty else {
            return ["Sync through git (issue 25): not measured in this run (--sync-sizes was empty)."]
        }
        var lines: [String] = []
        if let first = results.first(where: { $0.notes == Self.firstSyncNotes }) {
            lines.append("First sync of \(first.notes) notes with \(first.images) images under 10 s: \(BenchReport.time(first.firstSync.median)), "
                + "\(verdict(first.firstSync.median < Self.firstSyncLimit)) (plain git: \(BenchReport.time(first.firstSyncBaseline.median))).")
        } else {
            lines.append("First sync of \(Self.firstSyncNotes) notes under 10 s: not measured in this run (sync sizes run: \(results.map { String($0.notes) }.joined(separator: ", "))).")
        }
        for result in results {
            let overGit = result.oneNote.median - result.oneNoteBaseline.median
            lines.append("A sync of one changed note at \(result.notes) notes under 1 s plus git's own time: \(BenchReport.time(result.oneNote.median)), "
                + "\(BenchReport.time(max(overGit, 0))) over plain git's \(BenchReport.time(result.oneNoteBaseline.median)), \(verdict(overGit < Self.oneNoteLimit)).")
        }
        lines += encryptedSync(results)
        if let smallest = results.min(by: { $0.notes < $1.notes }), let largest = results.max(by: { $0.notes < $1.notes }), largest.notes > smallest.notes {
            let factor = Double(largest.firstSyncPeakMemory) / Double(max(smallest.firstSyncPeakMemory, 1))
            lines.append("First sync's memory flat in the number of notes (\(largest.notes) notes within 1.5x of \(smallest.notes)): "
                + "\(BenchReport.bytes(Double(largest.firstSyncPeakMemory))) vs \(BenchReport.bytes(Double(smallest.firstSyncPeakMemory))), "
                + "\(String(format: "%.2f", factor))x, \(verdict(factor <= 1.5)).")
        }
        return lines
    }

    /// Issue 35: the encrypted first sync of 10,000 notes within 1.5x of the plain one; one
    /// changed note under 1 s over plain git; the encrypted first sync's memory flat.
    private func encryptedSync(_ results: [SyncPaths.Result]) -> [String] {
        var lines: [String] = []
        for result in results {
            guard let first = result.encryptedFirstSync, let one = result.encryptedOneNote else { continue }
            let factor = first.median / max(result.firstSync.median, 1e-9)
            if result.notes == Self.firstSyncNotes {
                lines.append("Encrypted first sync of \(result.notes) notes with \(result.images) images within 1.5x of the plain one: "
                    + "\(BenchReport.time(first.median)) vs \(BenchReport.time(result.firstSync.median)), \(String(format: "%.2f", factor))x, \(verdict(factor <= 1.5)).")
            }
            let overGit = one.median - result.oneNoteBaseline.median
            lines.append("An encrypted sync of one changed note at \(result.notes) notes under 1 s over plain git: \(BenchReport.time(one.median)), "
                + "\(BenchReport.time(max(overGit, 0))) over plain git's \(BenchReport.time(result.oneNoteBaseline.median)), \(verdict(overGit < Self.oneNoteLimit)).")
        }
        let measured = results.filter { $0.encryptedFirstSyncPeakMemory != nil }
        if let smallest = measured.min(by: { $0.notes < $1.notes }), let largest = measured.max(by: { $0.notes < $1.notes }), largest.notes > smallest.notes,
           let low = smallest.encryptedFirstSyncPeakMemory, let high = largest.encryptedFirstSyncPeakMemory {
            let factor = Double(high) / Double(max(low, 1))
            lines.append("Encrypted first sync's memory flat (\(largest.notes) notes within 1.5x of \(smallest.notes)): \(BenchReport.bytes(Double(high))) vs "
                + "\(BenchReport.bytes(Double(low))), \(String(format: "%.2f", factor))x, \(verdict(factor <= 1.5)).")
        }
        return lines
    }
}
