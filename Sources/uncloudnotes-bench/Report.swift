import Foundation

/// The benchmark's figures, written as JSON and as the Markdown of `docs/performance.md`.
struct BenchReport: Codable {
    struct Step: Codable {
        var name: String
        var engineSeconds: Double
        var baselineSeconds: Double
        var enginePeakMemoryBytes: Int64
        var storeBytesBefore: Int64
        var storeBytesAfter: Int64
        var ratio: Double { baselineSeconds > 0 ? engineSeconds / baselineSeconds : 0 }
    }

    struct Size: Codable {
        var notes: Int
        var images: Int
        var steps: [Step]
        var chainEngineSeconds: Double { steps.map(\.engineSeconds).reduce(0, +) }
        var chainBaselineSeconds: Double { steps.map(\.baselineSeconds).reduce(0, +) }
        var peakMemoryBytes: Int64 { steps.map(\.enginePeakMemoryBytes).max() ?? 0 }
    }

    var date: String
    var machine: String
    var sizes: [Size]
    var launch: LaunchBenchmark.Result?

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    func markdown() -> String {
        var lines = ["# Performance", "",
                     "Measured by `make bench` (`swift run -c release uncloudnotes-bench`); do not edit by hand.", "",
                     "- Date: \(date)", "- Machine: \(machine)", "",
                     "Each engine step runs in a child process (timed from the end of model loading to the end of the step), as the self-migrating stack runs it without its backup copy: v1 -> v2 in place, v2 -> v3 and v3 -> v4 through the migration manager into a new file. The baseline runs the same transformations as hand-written SQL, in place, on a copy of the same store (v3 -> v4 reads widths and heights from the image headers in a tight loop). Peak memory is the child's own peak resident set size as the kernel counts it (`VmHWM`). 10% of the notes get a real image of about 50 KB at v2.", "",
                     "## Migrations", "",
                     "| notes | step | engine | baseline | engine / baseline | engine peak memory | store before | store after |",
                     "|---:|---|---:|---:|---:|---:|---:|---:|"]
        for size in sizes {
            for step in size.steps {
                lines.append("| \(size.notes) | \(step.name) | \(Self.time(step.engineSeconds)) | \(Self.time(step.baselineSeconds)) | \(String(format: "%.2f", step.ratio)) | \(Self.bytes(step.enginePeakMemoryBytes)) | \(Self.bytes(step.storeBytesBefore)) | \(Self.bytes(step.storeBytesAfter)) |")
            }
            let ratio = size.chainBaselineSeconds > 0 ? size.chainEngineSeconds / size.chainBaselineSeconds : 0
            lines.append("| \(size.notes) | **v1 -> v4** | **\(Self.time(size.chainEngineSeconds))** | **\(Self.time(size.chainBaselineSeconds))** | **\(String(format: "%.2f", ratio))** | \(Self.bytes(size.peakMemoryBytes)) | | |")
        }
        if let launch {
            lines += ["", "## Launch, pages and search (\(launch.notes) notes, in process, no terminal)", "",
                      "| measure | time |", "|---|---:|",
                      "| open, check and lay out the first list screen | \(Self.time(launch.launchToFirstScreen)) |",
                      "| any later page (worst of six moves) | \(Self.time(launch.laterPageWorst)) |",
                      "| search `title CONTAINS[cd] \"CAFE\" OR body CONTAINS[cd] \"CAFE\"` (\(launch.searchMatches) matches) | \(Self.time(launch.search)) |"]
        }
        lines += ["", "## Targets", ""] + targets().map { "- \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each target, met or not, with the figures it is judged on.
    func targets() -> [String] {
        var results: [String] = []
        func verdict(_ met: Bool) -> String { met ? "met" : "**not met**" }
        if let size = sizes.first(where: { $0.notes == 100_000 }) {
            let ratio = size.chainEngineSeconds / max(size.chainBaselineSeconds, 1e-9)
            results.append("Whole chain v1 -> v4 at 100,000 notes at most 2x the baseline: \(String(format: "%.2f", ratio))x, \(verdict(ratio <= 2)).")
        }
        let firstSteps = sizes.compactMap { size in size.steps.first.map { (size.notes, $0.engineSeconds) } }
        if let small = firstSteps.first, let large = firstSteps.last, firstSteps.count > 1 {
            results.append("v1 -> v2 in place the same at \(large.0) notes as at \(small.0), under 50 ms: \(Self.time(small.1)) and \(Self.time(large.1)), \(verdict(large.1 < 0.05 && small.1 < 0.05)).")
        }
        if let large = sizes.last, let middle = sizes.first(where: { $0.notes == 100_000 }), large.notes > middle.notes {
            let growth = Double(large.peakMemoryBytes) / Double(max(middle.peakMemoryBytes, 1))
            results.append("Peak memory flat in N (\(large.notes) within 20% of \(middle.notes)) and under 150 MB: \(Self.bytes(middle.peakMemoryBytes)) and \(Self.bytes(large.peakMemoryBytes)), \(verdict(growth <= 1.2 && large.peakMemoryBytes < 150_000_000)).")
        }
        if let launch {
            results.append("Launch to first list screen under 100 ms: \(Self.time(launch.launchToFirstScreen)), \(verdict(launch.launchToFirstScreen < 0.1)).")
            results.append("Any later page under 20 ms: \(Self.time(launch.laterPageWorst)), \(verdict(launch.laterPageWorst < 0.02)).")
            results.append("Search under 300 ms: \(Self.time(launch.search)), \(verdict(launch.search < 0.3))."
                + (launch.search < 0.3 ? "" : " Why: the search is a full scan; each title and body (about 60 MB of text at 100,000 notes) is folded without case and accents and searched, since \"CAFE\" must match \"café\" and no index can answer that. The folding reads each row's bytes in place and stops at the first match; SQLite alone needs about 100-150 ms just to scan that much text on this machine."))
        }
        return results
    }

    static func time(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }

    static func bytes(_ count: Int64) -> String {
        count >= 1 << 30 ? String(format: "%.2f GB", Double(count) / Double(1 << 30))
            : count >= 1 << 20 ? String(format: "%.1f MB", Double(count) / Double(1 << 20)) : String(format: "%.0f KB", Double(count) / 1024)
    }
}
