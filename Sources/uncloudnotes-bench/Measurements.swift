import Foundation

/// A figure measured several times: the median is what the report judges, min and max show the spread.
struct Stats: Codable {
    var median: Double
    var min: Double
    var max: Double
    var runs: [Double]

    init(_ runs: [Double]) {
        let sorted = runs.sorted()
        self.runs = runs
        self.min = sorted.first ?? 0
        self.max = sorted.last ?? 0
        if sorted.isEmpty {
            median = 0
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }
}

/// Collects interleaved runs under names, so each measure's runs sit between the others'.
struct RunLog {
    private(set) var values: [String: [Double]] = [:]

    mutating func add(_ value: Double, to name: String) { values[name, default: []].append(value) }

    func stats(_ name: String) -> Stats { Stats(values[name] ?? []) }
}

/// What this process has cost so far, as the kernel counts it: read in a child before and after
/// the work it measures.
enum ProcessCounters {
    /// Bytes this process caused to be written to storage (`write_bytes` of `/proc/self/io`,
    /// counted when pages are dirtied, so writes the kernel flushes later are still charged here).
    static func bytesWritten() -> Int64? { field("write_bytes", in: "/proc/self/io", separator: ":") }

    /// Peak resident memory (`VmHWM`). A spawned child's `ru_maxrss` is not used: Linux carries the
    /// parent's peak into it at `exec`, so it would grow with whatever the parent holds.
    static func peakMemory() -> Int64? { field("VmHWM", in: "/proc/self/status", separator: ":").map { $0 * 1024 } }

    private static func field(_ name: String, in file: String, separator: Character) -> Int64? {
        // A /proc file that cannot be read leaves the figure out of the report.
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + String(separator)) }) else { return nil }
        return line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first.flatMap { Int64($0) }
    }
}

/// Flushes files to the disk, so a timed run neither inherits nor leaves unwritten pages.
enum DiskSync {
    static func sync(_ url: URL) throws {
        for path in [url.path, url.deletingLastPathComponent().path] {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { throw BenchError("cannot open \(path) to sync it") }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw BenchError("cannot sync \(path)") }
        }
    }

    /// A copy of `source` at `destination`, synced with its folder before anything is timed on it.
    static func syncedCopy(of source: URL, at destination: URL) throws {
        // There is usually no earlier copy to remove.
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.copyItem(at: source, to: destination)
        try sync(destination)
    }
}

func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
