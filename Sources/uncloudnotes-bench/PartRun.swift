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
/// the run's scratch stores and models).
enum PartScratch {
    static func run<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Scratch in the temporary folder: removing it is best effort, and must not hide the result.
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }
}
