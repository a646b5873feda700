import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

/// Measures migrations against hand-written SQL in place, with the physical floors, and the app's
/// read paths against Python's sqlite3.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uncloudnotes-bench",
        abstract: "Benchmark migrations (engine vs in-place hand-written SQL: time, bytes written, peak memory) and the read paths.",
        discussion: """
            Writes performance.md and performance.json into the output folder. Needs the uncloudnotes
            binary built beside this one, and python3.

            Examples:
              make bench                 (builds both programs, writes docs/performance.md)
              uncloudnotes-bench --sizes 2000 --images small --runs 3 --output /tmp/bench
              uncloudnotes-bench picture --runs 5   (time to picture alone)
              uncloudnotes-bench first-search --sizes 100000   (the first search of a big store alone)
              uncloudnotes-bench keys --sizes 1000000   (p, s, a tag filter and a title-only save alone)
              uncloudnotes-bench model-check --runs 3   (model check of 20- and 40-version models alone)
              uncloudnotes-bench migrations --sizes 1000000 --images small   (the migrations and issue 37's verdicts alone)
            """,
        subcommands: [Run.self, Measure.self, Generate.self, Render.self, Picture.self, FirstSearch.self, KeyPathsCommand.self,
                      ModelCheckBench.self, MigrationsCommand.self],
        defaultSubcommand: Run.self)

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the benchmark.")

        @Option(help: "Numbers of notes, comma-separated.") var sizes = "10000,100000,1000000"
        @Option(help: "Image kinds, comma-separated: small (under 2 KB), big (about 50 KB).") var images = "small,big"
        @Option(help: "Interleaved runs per figure (at least 3 for a report to judge on).") var runs = 3
        @Option(help: "A note printed at the top of the report (say why a run is not a full one).") var note: String?
        @Option(help: "Where to write performance.md and performance.json.") var output = "docs"
        @Option(help: "Where to make the stores (removed afterwards). Default: a temporary folder.") var work: String?
        @Option(help: "The size of the JPEG timed to picture, WIDTHxHEIGHT (12 megapixels by default).") var picture = "4000x3000"
        @Option(help: "Numbers of notes whose first sync through git is timed, comma-separated; empty for none.") var syncSizes = "1000,10000"
        @Option(help: "Numbers of notes whose JSON import is timed, comma-separated; empty for none.") var importSizes = "1000,20000,100000"
        @Option(help: "Numbers of versions of the models whose `model check` is timed, comma-separated; empty for none.") var modelCheckVersions = "20,40"

        func validate() throws {
            guard !counts.isEmpty, counts.allSatisfy({ $0 >= 10 }) else { throw ValidationError("--sizes takes numbers of at least 10, comma-separated") }
            guard let kinds, !kinds.isEmpty else { throw ValidationError("--images takes small, big or both, comma-separated") }
            guard runs >= 1 else { throw ValidationError("--runs takes a number of at least 1") }
            guard pictureSize != nil else { throw ValidationError("--picture takes WIDTHxHEIGHT, such as 4000x3000") }
            guard syncCounts.allSatisfy({ $0 >= 10 }), syncCounts.count == syncSizes.split(separator: ",").count else {
                throw ValidationError("--sync-sizes takes numbers of at least 10, comma-separated, or nothing")
            }
            guard importCounts.allSatisfy({ $0 >= 10 }), importCounts.count == importSizes.split(separator: ",").count else {
                throw ValidationError("--import-sizes takes numbers of at least 10, comma-separated, or nothing")
            }
            guard ModelCheckVersions.parse(modelCheckVersions) != nil else {
                throw ValidationError(ModelCheckVersions.usage("--model-check-versions") + ", or nothing")
            }
        }

        private var pictureSize: PictureSize? { PictureSize(picture) }

        private var counts: [Int] { sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

        private var syncCounts: [Int] { syncSizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

        private var importCounts: [Int] { importSizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

        private var kinds: [ImageKind]? { ImageKind.list(images) }

        func run() throws {
            let model = try UnCloudNotesModel.load()
            guard let kinds = self.kinds, let readKind = kinds.first else { throw ValidationError("--images takes small, big or both, comma-separated") }
            let folder = URL(fileURLWithPath: work ?? FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-bench-\(UUID().uuidString.prefix(8))").path)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Removing the temporary stores is best effort.
            defer { if work == nil { try? FileManager.default.removeItem(at: folder) } }
            var report = BenchReport(date: Date().formatted(.iso8601), machine: Machine.description, runs: runs, note: note, sizes: [])
            for count in counts {
                let masters = try StoreMasters.make(in: folder.appendingPathComponent("\(count)"), notes: count, kinds: kinds, model: model, log: BenchLog.write)
                defer { masters.remove() }
                var size = BenchReport.Size(notes: count, imageCount: count / 10,
                                            migrations: try MigrationBenchmark.measureAll(masters: masters, kinds: kinds, runs: runs, model: model, log: BenchLog.write))
                BenchLog.write("\(count) notes: read paths")
                let readStore = masters.folder.appendingPathComponent("read.sqlite")
                try DiskSync.syncedCopy(of: masters.url(version: model.currentNumber, images: readKind), at: readStore)
                size.readPaths = try ReadPaths.measure(storeAt: readStore, notes: count, runs: runs, scratch: masters.folder)
                BenchLog.write("\(count) notes: the first search after an upgrade from v1, and with no index")
                size.firstSearch = try FirstSearchPaths.measure(v1Master: masters.url(version: 1, images: nil), notes: count, runs: runs,
                                                                scratch: masters.folder)
                BenchLog.write("\(count) notes: the first page of a tag's notes and of the pinned-first list")
                size.tagAndPin = try TagAndPinPaths.measure(storeAt: readStore, notes: count, runs: runs, scratch: masters.folder)
                BenchLog.write("\(count) notes: a 10 MB note on screen")
                size.bigNote = try BigNotePaths.measure(storeAt: readStore, notes: count, runs: runs)
                BenchLog.write("\(count) notes: p, s, a tag filter and a title-only save")
                size.keyPaths = try KeyPaths.measure(storeAt: readStore, notes: count, runs: runs, scratch: masters.folder)
                BenchLog.write("\(count) notes: saving with persistent history")
                size.historyCost = try HistoryCost.measure(storeAt: readStore, notes: count, runs: runs, scratch: masters.folder)
                report.sizes.append(size)
            }
            if let pictureSize {
                BenchLog.write("time to picture: a \(picture) JPEG")
                report.picture = try PicturePaths.measure(in: folder, width: pictureSize.width, height: pictureSize.height, runs: runs)
            }
            if !syncCounts.isEmpty { report.sync = try SyncPaths.measure(sizes: syncCounts, runs: runs, scratch: folder, log: BenchLog.write) }
            if !importCounts.isEmpty { report.imports = try ImportPaths.measure(sizes: importCounts, runs: runs, scratch: folder, log: BenchLog.write) }
            if let versions = ModelCheckVersions.parse(modelCheckVersions), !versions.isEmpty {
                report.modelCheck = try ModelCheckPaths.measure(versions: versions, runs: runs, scratch: folder, log: BenchLog.write)
            }
            let out = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try report.json().write(to: out.appendingPathComponent("performance.json"))
            try Data(report.markdown().utf8).write(to: out.appendingPathComponent("performance.md"))
            print(report.markdown())
        }

    }

    /// One side of one migration, run as a child process so its time, writes and memory are its own.
    struct Measure: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "measure", abstract: "(internal) Run one side of one migration.", shouldDisplay: false)
        @Option(help: "How the engine runs: stack or step-alone.") var engine: MigrationCase.Engine?
        @Flag(help: "Run the hand-written SQL instead of the engine.") var baseline = false
        @Option var from: Int
        @Option var to: Int
        @Option var store: String

        func validate() throws {
            guard (engine == nil) == baseline else { throw ValidationError("give either --engine or --baseline") }
            guard 1 <= from, from < to, to <= 5 else { throw ValidationError("--from and --to take versions 1 to 5, from before to") }
        }

        func run() throws {
            let url = URL(fileURLWithPath: store)
            switch engine {
            case nil: try Baseline.migrate(storeAt: url, from: from, to: to)
            case .stack: try EngineMigration.migrate(storeAt: url, to: to)
            case .stepAlone: try EngineMigration.inPlaceStepAlone(storeAt: url, from: from)
            }
        }
    }
}

/// Makes one store of N notes, for looking at a migration by hand (`measure` then runs it): at v1,
/// or with `--images` at v2 with every tenth note's image, as the benchmark's masters.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate", abstract: "(internal) Make a v1 store of N notes, or a v2 one with images.", shouldDisplay: false)
    @Option var notes: Int
    @Option var store: String
    @Option(help: "Make the store at v2 with images of this kind: small or big.") var images: ImageKind?

    func run() throws {
        let model = try UnCloudNotesModel.load()
        let url = URL(fileURLWithPath: store)
        guard let images else { return try StoreGenerator.makeV1Store(at: url, notes: notes, model: model) }
        let v1 = url.deletingLastPathComponent().appendingPathComponent("generate-v1-\(UUID().uuidString.prefix(8)).sqlite")
        // The v1 store is a scratch file; removing it and its companions is best effort.
        defer { StoreFiles(url: v1).existing.forEach { try? FileManager.default.removeItem(at: $0) } }
        try StoreGenerator.makeV1Store(at: v1, notes: notes, model: model)
        try StoreMasters.makeStore(at: url, version: 2, from: v1, images: images, model: model)
    }
}

extension ImageKind: ExpressibleByArgument {}

enum Machine {
    static var description: String {
        var name = utsname()
        uname(&name)
        let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // The CPU name only labels the report; without /proc/cpuinfo it is left out.
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        return "\(system) \(release), \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(String(format: "%.0f", memory)) GB"
    }
}

Bench.main()
