import ArgumentParser
import Foundation
import UnCloudNotesKit

/// Times only the picture path (issue 26), without the hour of migrations a full run takes:
/// for working on the decoder and the encoders. With `--merge`, the figures replace the time to
/// picture of a run's performance.json, and performance.md is written again beside it.
struct Picture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "picture", abstract: "Time a camera-sized JPEG to picture, per protocol, and optionally merge the figures into a report.")

    @Option(help: "The size of the JPEG, WIDTHxHEIGHT (12 megapixels by default).") var size = "4000x3000"
    @Option(help: "Interleaved runs per protocol.") var runs = 5
    @Option(help: "A run's performance.json whose time to picture these figures replace (performance.md is written again beside it).") var merge: String?
    @Option(help: "With --merge: the report's note, replaced (say where its figures come from).") var note: String?

    func validate() throws {
        guard PictureSize(size) != nil else { throw ValidationError("--size takes WIDTHxHEIGHT, such as 4000x3000") }
        guard runs >= 1 else { throw ValidationError("--runs takes a number of at least 1") }
        guard note == nil || merge != nil else { throw ValidationError("--note goes with --merge") }
    }

    func run() throws {
        guard let picture = PictureSize(size) else { throw ValidationError("--size takes WIDTHxHEIGHT, such as 4000x3000") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uncloudnotes-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The temporary store is removed best effort.
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try PicturePaths.measure(in: folder, width: picture.width, height: picture.height, runs: runs)
        if let merge {
            let json = URL(fileURLWithPath: merge)
            var report = try JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: json))
            if let note { report.note = note }
            report.picture = result
            try report.json().write(to: json)
            try Data(report.markdown().utf8).write(to: json.deletingLastPathComponent().appendingPathComponent("performance.md"))
        }
        print(BenchReport.pictureSection(result).joined(separator: "\n"))
    }
}

/// `WIDTHxHEIGHT`, as `--picture` and `--size` take it.
struct PictureSize {
    let width: Int
    let height: Int

    init?(_ text: String) {
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { return nil }
        (width, height) = (parts[0], parts[1])
    }
}
