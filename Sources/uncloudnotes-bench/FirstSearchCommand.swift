import ArgumentParser
import Foundation
import UnCloudNotesKit

/// Times only the first search of a big store (issue 38, bug 7) and the index's size, without
/// the hour of migrations a full run takes: for working on the search index.
struct FirstSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-search", abstract: "Time the first search after an upgrade from v1, and with no index, and measure the index.")

    @OptionGroup var part: PartSizes

    func run() throws {
        let model = try UnCloudNotesModel.load()
        let results = try PartScratch.run { folder in
            try part.counts.map { count in
                let master = folder.appendingPathComponent("v1-\(count).sqlite")
                try StoreGenerator.makeV1Store(at: master, notes: count, model: model)
                try DiskSync.sync(master)
                return try FirstSearchPaths.measure(v1Master: master, notes: count, runs: part.runs, scratch: folder)
            }
        }
        print(BenchReport.firstSearchSection(results).joined(separator: "\n"))
    }
}
