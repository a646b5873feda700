import Foundation
import Testing
import TestSupport

/// `notes import` of a file whose notes the store already holds: skipped and counted, unless
/// `--as-new`. Run as v4, whose notes have no identifiers: the rule of `ImportMatch` (v5 merges
/// by identifier: `NotesMergeTests`).
@Suite("notes import: notes already in the store")
struct NotesImportTests {
    private func app(_ store: URL, _ arguments: String...) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run(["--store", store.path, "--model-version", "v4"] + arguments)
    }

    private func count(_ store: URL) throws -> Int {
        try app(store, "notes", "list").standardOutput.split(separator: "\n").count
    }

    @Test("importing a file twice adds its notes once and says how many it skipped; a changed note is added; --as-new copies")
    func importTwice() throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("source.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 8, height: 8)
        _ = try app(source, "notes", "add", "--title", "Groceries", "--body", "milk", "--image", image.path)
        _ = try app(source, "notes", "add", "--title", "Plan", "--body", "one\ntwo")
        _ = try app(source, "notes", "add", "--title", "Plan", "--body", "another plan")
        let file = folder.url.appendingPathComponent("notes.json")
        #expect(try app(source, "notes", "export", "--output", file.path).exitCode == 0)

        let target = folder.url.appendingPathComponent("target.sqlite")
        #expect(try app(target, "notes", "import", file.path).standardOutput == "imported 3 notes\n")
        let again = try app(target, "notes", "import", file.path)
        #expect(again.exitCode == 0 && again.standardOutput == "nothing changed: the store already holds all 3 notes of the file (--as-new adds copies)\n")
        #expect(try app(target, "notes", "import", file.path, "--json").standardOutput == "{\"imported\":0,\"skipped\":3}\n")
        #expect(try count(target) == 3)

        // Back into the store it came from, whose dates hold fractions of a second the file does not.
        #expect(try app(source, "notes", "import", file.path, "--json").standardOutput == "{\"imported\":0,\"skipped\":3}\n")

        #expect(try app(target, "notes", "edit", "2", "--body", "one\nthree").exitCode == 0)
        #expect(try app(target, "notes", "import", file.path).standardOutput == "imported 1 note; skipped 2 already in the store (--as-new adds copies)\n")
        #expect(try app(target, "notes", "import", file.path, "--as-new").standardOutput == "imported 3 notes\n")
        #expect(try count(target) == 7)
    }

    @Test("a file that is no export, or an export with a bad first note, leaves no new store behind",
          arguments: ["not json at all", #"{"format":"something else","notes":[]}"#,
                      #"{"format":"uncloudnotes-notes","formatVersion":2,"notes":[{"title":3}]}"#])
    func refusedFileMakesNoStore(contents: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("bad.json")
        try Data(contents.utf8).write(to: file)
        let target = folder.url.appendingPathComponent("new.sqlite")
        let refused = try app(target, "notes", "import", file.path)
        #expect(refused.exitCode == 1 && !refused.standardError.contains("created new store"), "\(refused.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["bad.json"])
    }

    @Test("an export without notes is imported: the new store is made, empty")
    func emptyExportMakesTheStore() throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("source.sqlite")
        _ = try app(source, "notes", "add", "--title", "Gone", "--body", "soon")
        #expect(try app(source, "notes", "delete", "1").exitCode == 0)
        let file = folder.url.appendingPathComponent("empty.json")
        #expect(try app(source, "notes", "export", "--output", file.path).exitCode == 0)
        let target = folder.url.appendingPathComponent("target.sqlite")
        let imported = try app(target, "notes", "import", file.path)
        #expect(imported.exitCode == 0 && imported.standardOutput == "imported 0 notes\n", "\(imported.standardError)")
        #expect(try count(target) == 0)
    }
}
