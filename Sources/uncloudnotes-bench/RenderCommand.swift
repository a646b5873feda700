import ArgumentParser
import Foundation

/// Writes performance.md again from a run's performance.json: for when the report's text or its
/// targets change and the figures stand (a full run takes most of an hour).
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "(internal) Write performance.md again from a run's performance.json.", shouldDisplay: false)

    @Option(help: "The run's performance.json; performance.md is written beside it.") var from = "docs/performance.json"

    func run() throws {
        let json = URL(fileURLWithPath: from)
        let report = try JSONDecoder().decode(BenchReport.self, from: Data(contentsOf: json))
        try Data(report.markdown().utf8).write(to: json.deletingLastPathComponent().appendingPathComponent("performance.md"))
    }
}
