import Foundation
import Testing
import TestSupport

@Suite("uncloudnotes store history")
struct StoreHistoryCommandTests {
    @Test("the app's saves are recorded: an add, an edit of the body, a delete, each a transaction by uncloudnotes")
    func appSaves() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite").path
        for arguments in [["notes", "add", "--title", "One", "--body", "first"], ["notes", "add", "--title", "Two", "--body", "second"],
                          ["notes", "edit", "1", "--body", "changed"], ["notes", "delete", "2"]] {
            #expect(try BuiltExecutable.run(["--store", store] + arguments).exitCode == 0)
        }
        let text = try BuiltExecutable.run(["--store", store, "store", "history", "--changes"])
        #expect(text.exitCode == 0)
        let changes = text.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  insert") || $0.hasPrefix("  update") || $0.hasPrefix("  delete") }
        // v5 records the modified date with each change, and history keeps a deleted note's
        // identifier (preserved after deletion), so a sync knows which note went.
        #expect(changes.count == 4 && Array(changes.prefix(3)) == ["  insert Note 1", "  insert Note 2", "  update Note 1: body, dateModified"])
        let tombstone = try #require(changes.last)
        #expect(tombstone.hasPrefix("  delete Note 2 (tombstone identifier=") && tombstone.contains(/identifier=[0-9A-F-]{36}\)$/), "\(changes)")
        #expect(text.standardOutput.contains("transaction 4 "))
        #expect(text.standardOutput.contains("author uncloudnotes, context notes"))

        let json = try BuiltExecutable.run(["--store", store, "store", "history", "--since", "2", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let transactions = try #require(report["transactions"] as? [[String: Any]])
        #expect(transactions.compactMap { $0["token"] as? Int } == [3, 4])
        #expect(try BuiltExecutable.run(["--store", store, "store", "history", "--author", "sync"]).standardOutput == "no history\n")
    }

    @Test("Apple's store shows Apple's transaction: its bundle, its process and 5,468 inserts", SharedFixtures.required)
    func applesHistory() throws {
        let folder = try TemporaryFolder()
        let url = try folder.copy(SharedFixtures.url("coredataplus-samplemodel2/SampleModel2_V1.sqlite"))
        let before = try Data(contentsOf: url)
        let result = try BuiltExecutable.run(["store", "history", url.path])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("bundle com.apple.dt.xctest.tool, process xctest"))
        #expect(result.standardOutput.contains("Author 2 inserts; Book 51 inserts; Feedback 444 inserts; GraphicNovel 1 insert; Page 4970 inserts"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a negative --since is a usage error")
    func badToken() throws {
        let result = try BuiltExecutable.run(["store", "history", "--since", "-3"])
        #expect(result.exitCode == 2)
    }
}
