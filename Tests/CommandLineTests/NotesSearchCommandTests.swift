import Foundation
import Testing
import TestSupport
import UnCloudNotesKit

/// `notes list --search` is the app's one search: long patterns through the search index, short
/// ones by the scan, both folding case and accents as `CONTAINS[cd]` does.
@Suite("notes list --search")
struct NotesSearchCommandTests {
    private static let texts = ["Café crème", "CAFE CREME", "cafe", "naïve Über", "NAIVE uber", "Straße", "strasse", "Ångström",
                                "angstrom", "plain", "É", "e"]

    private func listedIDs(_ store: URL, _ arguments: [String]) throws -> [Int64] {
        let result = try BuiltExecutable.run(["--store", store.path, "notes", "list", "--json"] + arguments)
        #expect(result.exitCode == 0, "\(result.standardError)")
        return try result.standardOutput.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require((object["id"] as? NSNumber)?.int64Value)
        }
    }

    @Test("the command lists exactly the scan's matches, in its order, for short and indexed patterns")
    func matchesTheScan() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let book = try UnCloudNotesStack(storeURL: store).open()
        for (index, title) in Self.texts.enumerated() {
            // Some notes share a date, so the order of ties is compared too.
            try book.add(NoteDraft(title: title, body: Self.texts[(index + 3) % Self.texts.count]),
                         date: Date(timeIntervalSinceReferenceDate: Double(index / 2) * 60))
        }
        var found = 0
        for query in ["caf", "CAFÉ", "é", "e", "über", "UBER", "naive", "strasse", "ß", "ång", "ANGSTROM", "zzz", "C"] {
            let scanned = try book.noteIDs(matching: query, usingIndex: false).map(\.number)
            #expect(try listedIDs(store, ["--search", query]) == scanned, "search for \(query)")
            #expect(try listedIDs(store, ["--search", query, "--limit", "2", "--offset", "1"]) == Array(scanned.dropFirst(1).prefix(2)),
                    "a page of the search for \(query)")
            found += scanned.count
        }
        #expect(found > 30, "the queries match notes (their accents and case variants)")
        #expect(FileManager.default.fileExists(atPath: store.path + "-search"), "long patterns went through the index")
    }
}
