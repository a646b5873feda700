import Foundation
import Testing
import TestSupport

/// Dates as people read them from the command line: local time with its offset (here Tokyo's,
/// +09:00, the test's own zone being UTC or any other), the same moment in every zone; Core
/// Data's seconds only on request.
@Suite("dates: local time with its offset")
struct LocalDateCommandTests {
    private func app(_ store: URL, _ arguments: [String], zone: String) throws -> BuiltExecutable.Result {
        let result = try BuiltExecutable.run(["--store", store.path] + arguments, environment: ["TZ": zone])
        #expect(result.exitCode == 0, "\(result.standardError)")
        return result
    }

    private func object(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private static func parse(_ text: String) throws -> Date {
        try #require(try? Date.ISO8601FormatStyle().parse(text), "\(text)")
    }

    @Test("notes list, show and their JSON write Tokyo time with +09:00 under TZ=Asia/Tokyo, the same moment as in UTC")
    func listAndShow() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        _ = try app(store, ["notes", "add", "--title", "T", "--body", "b"], zone: "UTC")
        let tokyo = try app(store, ["notes", "list"], zone: "Asia/Tokyo").standardOutput.split(separator: "\t")[1]
        let utc = try app(store, ["notes", "list"], zone: "UTC").standardOutput.split(separator: "\t")[1]
        #expect(tokyo.hasSuffix("+09:00") && utc.hasSuffix("Z"))
        #expect(try Self.parse(String(tokyo)) == Self.parse(String(utc)))
        let utcHour = try #require(Int(utc.dropFirst(11).prefix(2))), tokyoHour = try #require(Int(tokyo.dropFirst(11).prefix(2)))
        #expect(tokyoHour == (utcHour + 9) % 24)

        let listed = try object(app(store, ["notes", "list", "--json"], zone: "Asia/Tokyo").standardOutput)
        let shown = try object(app(store, ["notes", "show", "1", "--json"], zone: "Asia/Tokyo").standardOutput)
        let text = try app(store, ["notes", "show", "1"], zone: "Asia/Tokyo").standardOutput.split(separator: "\n")
        #expect(listed["dateCreated"] as? String == String(tokyo) && shown["dateCreated"] as? String == String(tokyo))
        #expect(text[1] == tokyo)
    }

    @Test("an export written in Tokyo and imported in New York keeps every date; Markdown dates are Tokyo's")
    func exportRoundTrip() throws {
        let folder = try TemporaryFolder()
        let source = try ProjectFixtures.copyStore("v3", into: folder, as: "source.sqlite")
        let file = folder.url.appendingPathComponent("notes.json")
        _ = try app(source, ["notes", "export", "--output", file.path], zone: "Asia/Tokyo")
        let exported = try object(String(decoding: try Data(contentsOf: file), as: UTF8.self))
        let notes = try #require(exported["notes"] as? [[String: Any]])
        #expect(notes.allSatisfy { ($0["dateCreated"] as? String)?.hasSuffix("+09:00") == true })
        let target = folder.url.appendingPathComponent("target.sqlite")
        #expect(try app(target, ["notes", "import", file.path], zone: "America/New_York").standardOutput == "imported 4 notes\n")
        let rows = { (store: URL) in try self.app(store, ["notes", "list"], zone: "UTC").standardOutput }
        #expect(try rows(target) == rows(source))

        let markdown = folder.url.appendingPathComponent("md")
        _ = try app(source, ["notes", "export", "--markdown", markdown.path], zone: "Asia/Tokyo")
        let text = try String(contentsOf: markdown.appendingPathComponent("notes.md"), encoding: .utf8)
        #expect(text.contains("+09:00_\n") && !text.contains("Z_\n"))
    }

    @Test("store export writes local time with its offset to the millisecond; --raw-dates Core Data's seconds, the same moment")
    func storeExport() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v3", into: folder)
        let text = try app(store, ["store", "export"], zone: "Asia/Tokyo").standardOutput
        let raw = try app(store, ["store", "export", "--raw-dates"], zone: "Asia/Tokyo").standardOutput
        let note = try #require(text.split(separator: "\n").first { $0.hasPrefix("  Note/1 ") })
        #expect(note.contains(#/dateCreated=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+09:00 /#), "\(note)")
        #expect(try #require(raw.split(separator: "\n").first { $0.hasPrefix("  Note/1 ") }).contains(#/dateCreated=\d+(\.\d+)? /#))

        let entities = { (arguments: [String]) throws -> [String: Any] in
            try #require(try self.object(self.app(store, ["store", "export", "--json"] + arguments, zone: "Asia/Tokyo").standardOutput)["entities"] as? [String: Any])
        }
        let dated = try #require((try entities([])["Note"] as? [[String: Any]])?.first?["dateCreated"] as? String)
        let seconds = try #require((try entities(["--raw-dates"])["Note"] as? [[String: Any]])?.first?["dateCreated"] as? Double)
        #expect(dated.hasSuffix("+09:00"))
        let moment = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(dated)
        #expect(abs(moment.timeIntervalSinceReferenceDate - seconds) < 0.001)
    }

    @Test("the app's note screen shows the date in Tokyo time with the zone under TZ=Asia/Tokyo")
    func appShowsZone() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        _ = try app(store, ["notes", "add", "--title", "Zoned", "--body", "b"], zone: "UTC")
        let tmux = try TmuxSession(command: "'\(BuiltExecutable.url.path)' --store '\(store.path)'; sleep 60",
                                   environment: ["LANG": "C.UTF-8", "TZ": "Asia/Tokyo"])
        try tmux.waitFor("Zoned")
        try tmux.press("Enter")
        let screen = try tmux.waitFor("GMT+9")
        #expect(screen.contains("Zoned"))
    }
}
