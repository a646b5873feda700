import Foundation
import Testing
import TestSupport

@Suite("The benchmark program keeps working")
struct BenchSmokeTests {
    @Test("a tiny run writes both reports with every figure (no timing is judged here)")
    func tinyRun() throws {
        let folder = try TemporaryFolder()
        let bench = BuiltExecutable.url.deletingLastPathComponent().appendingPathComponent("uncloudnotes-bench")
        let process = Process()
        process.executableURL = bench
        process.arguments = ["--sizes", "60,120", "--launch-notes", "120", "--output", folder.url.path, "--work", folder.url.appendingPathComponent("work").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("performance.json"))) as? [String: Any])
        let sizes = try #require(json["sizes"] as? [[String: Any]])
        #expect(sizes.map { $0["notes"] as? Int } == [60, 120])
        for size in sizes {
            let steps = try #require(size["steps"] as? [[String: Any]])
            #expect(steps.map { $0["name"] as? String } == ["v1 -> v2", "v2 -> v3", "v3 -> v4"])
            #expect(steps.allSatisfy { ($0["enginePeakMemoryBytes"] as? Int ?? 0) > 0 && ($0["storeBytesAfter"] as? Int ?? 0) > 0 })
        }
        #expect((json["launch"] as? [String: Any])?["notes"] as? Int == 120)
        let markdown = try String(contentsOf: folder.url.appendingPathComponent("performance.md"), encoding: .utf8)
        #expect(markdown.contains("| 120 | **v1 -> v4** |") && markdown.contains("## Targets"))
    }
}
