import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

/// Measures migrations against hand-written SQL, and the app's launch, list and search.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uncloudnotes-bench",
        abstract: "Benchmark migrations (engine vs hand-written SQL, time and peak memory) and the launch path.",
        discussion: """
            Writes performance.md and performance.json into the output folder.

            Examples:
              swift run -c release uncloudnotes-bench --output docs
              uncloudnotes-bench --sizes 2000 --launch-notes 2000 --output /tmp/bench
            """,
        subcommands: [Run.self, Step.self, Generate.self],
        defaultSubcommand: Run.self)

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the benchmark.")

        @Option(help: "Numbers of notes, comma-separated.") var sizes = "10000,100000,1000000"
        @Option(help: "Notes in the store the launch path is measured on (one of the sizes).") var launchNotes = 100_000
        @Option(help: "Where to write performance.md and performance.json.") var output = "docs"
        @Option(help: "Where to make the stores (removed afterwards). Default: a temporary folder.") var work: String?

        func run() throws {
            let counts = sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !counts.isEmpty, counts.allSatisfy({ $0 >= 10 }) else { throw ValidationError("--sizes takes numbers of at least 10") }
            let model = try UnCloudNotesModel.load()
            let folder = URL(fileURLWithPath: work ?? FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-bench-\(UUID().uuidString.prefix(8))").path)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { if work == nil { try? FileManager.default.removeItem(at: folder) } }
            var report = BenchReport(date: ISO8601DateFormatter().string(from: Date()), machine: Machine.description, sizes: [])
            for count in counts {
                log("\(count) notes: generating")
                let engine = folder.appendingPathComponent("engine-\(count).sqlite"), baseline = folder.appendingPathComponent("baseline-\(count).sqlite")
                try StoreGenerator.makeV1Store(at: engine, notes: count, model: model)
                try FileManager.default.copyItem(at: engine, to: baseline)
                var steps: [BenchReport.Step] = []
                for from in 1...3 {
                    if from == 2 {
                        try StoreGenerator.addImages(toV2StoreAt: engine)
                        try StoreGenerator.addImages(toV2StoreAt: baseline)
                    }
                    let before = Self.size(engine)
                    log("\(count) notes: v\(from) -> v\(from + 1)")
                    let measured = try ChildProcess.measure(["step", "--from", String(from), "--store", engine.path])
                    let baselineStart = DispatchTime.now()
                    try Baseline.run(step: from, storeAt: baseline, model: model)
                    steps.append(BenchReport.Step(name: "v\(from) -> v\(from + 1)", engineSeconds: measured.seconds,
                                                  baselineSeconds: LaunchBenchmark.seconds(since: baselineStart),
                                                  enginePeakMemoryBytes: measured.peakMemoryBytes, storeBytesBefore: before,
                                                  storeBytesAfter: Self.size(engine)))
                }
                try Self.check(engine, against: baseline, model: model)
                report.sizes.append(BenchReport.Size(notes: count, images: count / 10, steps: steps))
                if count == launchNotes {
                    log("\(count) notes: launch, pages, search")
                    report.launch = try LaunchBenchmark.run(storeAt: engine)
                }
                StoreFiles(url: engine).remove()
                StoreFiles(url: baseline).remove()
                try? FileManager.default.removeItem(atPath: engine.path + ".lock")
            }
            let out = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try report.json().write(to: out.appendingPathComponent("performance.json"))
            try Data(report.markdown().utf8).write(to: out.appendingPathComponent("performance.md"))
            print(report.markdown())
        }

        private static func size(_ url: URL) -> Int64 {
            StoreFiles(url: url).existing.compactMap { (try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? NSNumber }
                .reduce(0) { $0 + $1.int64Value }
        }

        /// The engine's result must hold what the baseline's holds.
        private static func check(_ engine: URL, against baseline: URL, model: VersionedModel) throws {
            func counts(_ url: URL) throws -> [Int] {
                let store = try PersistentStore.open(at: url, model: model.current, options: StoreOptions(isReadOnly: true, sqlLogger: nil))
                defer { try? store.close() }
                let context = ManagedObjectContext(store: store)
                return try ["Note", "ImageAttachment"].map { try context.count(FetchRequest(entityName: $0)) }
            }
            let (a, b) = (try counts(engine), try counts(baseline))
            guard a == b else { throw BenchError("the engine's store (\(a)) and the baseline's (\(b)) differ") }
        }

        private func log(_ text: String) {
            FileHandle.standardError.write(Data("bench: \(text)\n".utf8))
        }
    }

    /// One engine step, run as a child process so its memory can be measured alone.
    struct Step: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "step", abstract: "(internal) Run one engine migration step.", shouldDisplay: false)
        @Option var from: Int
        @Option var store: String

        func run() throws {
            print("elapsed=\(try EngineStep.run(from: from, storeAt: URL(fileURLWithPath: store)))")
            print("peak=\(PeakMemory.current() ?? 0)")
        }
    }
}

/// Makes one v1 store of N notes, for looking at a step by hand (`step` then runs it).
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate", abstract: "(internal) Make a v1 store of N notes.", shouldDisplay: false)
    @Option var notes: Int
    @Option var store: String

    func run() throws {
        try StoreGenerator.makeV1Store(at: URL(fileURLWithPath: store), notes: notes, model: UnCloudNotesModel.load())
    }
}

/// The process's peak resident memory, as the kernel counts it for this program's own memory
/// (`VmHWM`). A spawned child's `ru_maxrss` is not used: Linux carries the parent's peak into it
/// at `exec`, so it would grow with whatever the parent holds.
enum PeakMemory {
    static func current() -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int64(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }
}

enum Machine {
    static var description: String {
        var name = utsname()
        uname(&name)
        let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let memory = Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30)
        return "\(system) \(release), \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(String(format: "%.0f", memory)) GB"
    }
}

Bench.main()
