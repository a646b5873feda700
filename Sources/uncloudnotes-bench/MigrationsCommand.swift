import ArgumentParser
import Foundation
import UnCloudNotesKit

/// Measures only the migrations, against the in-place SQL and the floors, and judges issue 37's
/// targets: a full `run` at 1,000,000 notes also times every read path, key, search, sync and
/// import after them, hours more, where issue 37 asks for the migrations alone at that size.
struct MigrationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrations",
        abstract: "Time the migrations (engine, in-place SQL, cp, VACUUM INTO, the honest floor) and judge issue 37's targets.")

    @OptionGroup var part: PartSizes
    @Option(help: "Image kinds, comma-separated: small (under 2 KB), big (about 50 KB).") var images = "small,big"
    @Option(help: "Where to make the stores (a folder made in it is removed afterwards). Default: the temporary folder.") var work: String?

    func validate() throws {
        guard let kinds = ImageKind.list(images), !kinds.isEmpty else { throw ValidationError("--images takes small, big or both, comma-separated") }
    }

    func run() throws {
        let model = try UnCloudNotesModel.load()
        let kinds = ImageKind.list(images) ?? []
        let sizes = try PartScratch.run(in: work) { folder in
            try part.counts.map { count in
                let masters = try StoreMasters.make(in: folder.appendingPathComponent("\(count)"), notes: count, kinds: kinds, model: model,
                                                    log: BenchLog.write)
                defer { masters.remove() }
                return BenchReport.Size(notes: count, imageCount: count / 10,
                                        migrations: try MigrationBenchmark.measureAll(masters: masters, kinds: kinds, runs: part.runs, model: model,
                                                                                      log: BenchLog.write))
            }
        }
        let report = BenchReport(date: Date().formatted(.iso8601), machine: Machine.description, runs: part.runs, sizes: sizes)
        print(["- Date: \(report.date)", "- Machine: \(report.machine)", "- Runs: \(part.runs) per figure, interleaved"].joined(separator: "\n"))
        print(BenchReport.migrationsSection(sizes).joined(separator: "\n"))
        print("\n" + TargetVerdicts(report: report).issue37(at: part.counts).map { "- \($0)" }.joined(separator: "\n"))
    }
}
