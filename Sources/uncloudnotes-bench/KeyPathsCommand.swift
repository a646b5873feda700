import ArgumentParser
import Foundation
import UnCloudNotesKit

/// Times only issue 34's four keys (`p`, `s`, a tag filter, a title-only save) with the 10 MB
/// note, without the hour of migrations a full run takes: for working on the key path.
struct KeyPathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Time p, s, a tag filter and a title-only save with a 10 MB note, key to painted screen (issue 34).")

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
            // The benchmark's v1 store, upgraded to the current version by the app's stack.
            let store = folder.appendingPathComponent("keys-\(count).sqlite")
            try StoreGenerator.makeV1Store(at: store, notes: count, model: model)
            _ = try UnCloudNotesStack(storeURL: store).open()
            return try KeyPaths.measure(storeAt: store, notes: count, runs: runs, scratch: folder)
        }
        print(KeyPaths.section(results).joined(separator: "\n"))
        print(KeyPaths.verdicts(results).map { "- \($0)" }.joined(separator: "\n"))
    }
}

extension KeyPaths {
    /// The target: each of the four keys painted within a frame at 60 Hz.
    static let target = 0.016

    /// The report's table, one row per store size.
    static func section(_ results: [Result]) -> [String] {
        guard !results.isEmpty else { return [] }
        return ["", "## Keys on the list with a 10 MB note (issue 34)", "",
                "| notes | tagged | p (pin, unpin) | s (both orders) | tag filter (Enter, Esc) | title-only save | t (the picker, apart) | p on the 10 MB note (apart) | its title saved (apart) |",
                "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
            + results.map { r in
                "| \(r.notes) | \(r.taggedNotes) | \(BenchReport.time(r.pin)) | \(BenchReport.time(r.sort)) | \(BenchReport.time(r.tagFilter)) | "
                    + "\(BenchReport.time(r.titleSave)) | \(BenchReport.time(r.tagPicker)) | \(BenchReport.time(r.bigNotePin)) | "
                    + "\(BenchReport.time(r.bigNoteTitleSave)) |"
            }
    }

    /// One line per key and size: the slowest run's key against the target.
    static func verdicts(_ results: [Result]) -> [String] {
        results.flatMap { r in
            [("p", r.pin), ("s", r.sort), ("a tag filter", r.tagFilter), ("a title-only save", r.titleSave)].map { name, stats in
                "\(name) from key to painted screen at \(r.notes) notes with the 10 MB note under 16 ms (issue 34; slowest of the runs): "
                    + "\(BenchReport.time(stats.max)), \(stats.max < target ? "met" : "not met")"
            }
        }
    }
}
