import Foundation

/// Issue #36: `model check` "runs in seconds for a 20-version model". Timed here, as the user
/// waits for it, rather than by a unit test's clock: `uncloudnotes model check M.xcdatamodeld
/// --json` as a whole process on a generated model of N versions (`ModelCheckModel`), its peak
/// memory from GNU time. Runs are interleaved across the version counts. A run counts only if
/// the check exits 0 and its JSON says every route's trial passed (N - 1 of them).
enum ModelCheckPaths {
    struct Result: Codable {
        var versions: Int
        var routes: Int
        var trialsPassed: Int
        /// The whole process, start to exit.
        var check: Stats
        /// The check's own time, as its JSON reports it (the rest is the process starting and
        /// loading the model).
        var checkInProcess: Stats
        var peakMemory: Int64
    }

    /// The few fields of the check's `--json` the benchmark judges.
    private struct Printed: Decodable {
        struct Route: Decodable {}
        var routes: [Route]
        var trialsPassed: Int
        var seconds: Double
    }

    static func measure(versions counts: [Int], runs: Int, scratch: URL, log: (String) -> Void) throws -> [Result] {
        let app = try ChildProcess.sibling("uncloudnotes")
        let folder = scratch.appendingPathComponent("model-check")
        // Scratch: removing it is best effort.
        defer { try? FileManager.default.removeItem(at: folder) }
        let models = try counts.map { count in
            try ModelCheckModel.write(versions: count, in: folder.appendingPathComponent("\(count)"))
        }
        var timings = RunLog()
        var peaks: [Int: Int64] = [:]
        var printed: [Int: Printed] = [:]
        for run in 0..<runs {
            for (count, model) in zip(counts, models) {
                log("model check: \(count) versions, run \(run + 1) of \(runs)")
                let output = folder.appendingPathComponent("check-\(count).json")
                // A status other than 0 (errors found, or the check could not run) throws here.
                let (seconds, peak) = try SyncPaths.timedWithPeak(app, ["model", "check", model.path, "--json"],
                                                                  memory: folder.appendingPathComponent("peak"), standardOutput: output.path)
                let report = try JSONDecoder().decode(Printed.self, from: Data(contentsOf: output))
                guard report.trialsPassed == count - 1 else {
                    throw BenchError("model check of \(count) versions: \(report.trialsPassed) trial(s) passed, not \(count - 1)")
                }
                timings.add(seconds, to: "\(count)")
                timings.add(report.seconds, to: "\(count) in process")
                peaks[count] = max(peaks[count] ?? 0, peak)
                printed[count] = report
            }
        }
        return counts.map { count in
            Result(versions: count, routes: printed[count]?.routes.count ?? 0, trialsPassed: printed[count]?.trialsPassed ?? 0,
                   check: timings.stats("\(count)"), checkInProcess: timings.stats("\(count) in process"), peakMemory: peaks[count] ?? 0)
        }
    }
}
