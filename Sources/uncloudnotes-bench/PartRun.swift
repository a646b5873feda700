import ArgumentParser
import Foundation

/// The options of a part run alone (`first-search`, `keys`): the store sizes and the runs.
struct PartSizes: ParsableArguments {
    @Option(help: "Numbers of notes, comma-separated.") var sizes = "100000"
    @Option(help: "Interleaved runs per figure.") var runs = 3

    var counts: [Int] { sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 10 }) else { throw ValidationError("--sizes takes numbers of at least 10, comma-separated") }
        guard runs >= 1 else { throw ValidationError("--runs takes a number of at least 1") }
    }
}

/// The temporary folder of a part run alone, removed afterwards (best effort: it only holds
/// the run's scratch stores and models). `parent`: where to make it (`--work`, for stores too big
/// for the default temporary folder); the system's temporary folder by default.
enum PartScratch {
    static func run<Result>(in parent: String? = nil, _ body: (URL) throws -> Result) throws -> Result {
        let base = parent.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let folder = base.appendingPathComponent("uncloudnotes-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Only the run's scratch: removing it is best effort, and must not hide the result.
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}

/// The benchmark's progress, on standard error so that standard output holds only the report.
enum BenchLog {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data("bench: \(text)\n".utf8))
    }
}
