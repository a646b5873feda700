import ArgumentParser
import Foundation
import UnCloudNotesKit

/// Times only the first search of a big store (issue 38, bug 7) and the index's size, without
/// the hour of migrations a full run takes: for working on the search index.
struct FirstSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-search", abstract: "Time the first search after an upgrade from v1, and with no index, and measure the index.")

    @Option(help: "Numbers of notes, comma-separated.") var sizes = "100000"
    @Option(help: "Interleaved runs per figure.") var runs = 3

    private var counts: [Int] { sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 10 }) else { throw ValidationError("--sizes takes numbers of at least 10, comma-separated") }
        guard runs >= 1 else { throw ValidationError("--runs takes a number of at least 1") }
    }

    func run() throws {
        let model = try UnCloudNotesModel.load()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The temporary stores are removed best effort.
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = try counts.map { count in
            let master = folder.appendingPathComponent("v1-\(count).sqlite")
            try StoreGenerator.makeV1Store(at: master, notes: count, model: model)
            try DiskSync.sync(master)
            return try FirstSearchPaths.measure(v1Master: master, notes: count, runs: runs, scratch: folder)
        }
        print(BenchReport.firstSearchSection(results).joined(separator: "\n"))
    }
}
