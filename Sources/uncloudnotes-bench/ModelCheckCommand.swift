import ArgumentParser
import Foundation

/// Times only `model check` of generated N-version models (issue 36), without the hour a full
/// run takes: for working on the check.
struct ModelCheckBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model-check", abstract: "Time `uncloudnotes model check --json` of generated 20- and 40-version models, whole process.")

    @Option(help: "Numbers of model versions, comma-separated.") var versions = "20,40"
    @Option(help: "Interleaved runs per figure.") var runs = 3

    func validate() throws {
        guard let counts = ModelCheckVersions.parse(versions), !counts.isEmpty else { throw ValidationError(ModelCheckVersions.usage("--versions")) }
        guard runs >= 1 else { throw ValidationError("--runs takes a number of at least 1") }
    }

    func run() throws {
        let results = try PartScratch.run { folder in
            try ModelCheckPaths.measure(versions: ModelCheckVersions.parse(versions) ?? [], runs: runs, scratch: folder, log: BenchLog.write)
        }
        print(BenchReport.modelCheckSection(results).joined(separator: "\n"))
        print("\n" + TargetVerdicts(report: BenchReport(date: "", machine: "", runs: runs, sizes: [], modelCheck: results)).modelCheck().map { "- \($0)" }.joined(separator: "\n"))
    }
}

/// `--versions` and `--model-check-versions`: distinct version counts of at least 2, comma-separated.
enum ModelCheckVersions {
    /// The counts, an empty list for an empty text, or nil when one is not a number of at least 2 or repeats.
    static func parse(_ text: String) -> [Int]? {
        let parts = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        let counts = parts.compactMap { $0 }
        guard counts.count == parts.count, counts.allSatisfy({ $0 >= 2 }), Set(counts).count == counts.count else { return nil }
        return counts
    }

    static func usage(_ option: String) -> String { "\(option) takes distinct numbers of versions of at least 2, comma-separated" }
}
