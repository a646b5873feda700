import Foundation
import Testing
import TestSupport

@Suite("uncloudnotes notes …")
struct NotesCommandTests {
    private func app(_ store: URL, _ arguments: String...) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run(["--store", store.path] + arguments)
    }

    @Test("add, list, show, edit, attach, delete")
    func lifecycle() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 30, height: 10)
        #expect(try app(store, "notes", "add", "--title", "Groceries", "--body", "milk").standardOutput == "added note 1\n")
        #expect(try app(store, "notes", "add", "--title", "笔记", "--body", "", "--image", image.path).exitCode == 0)
        let list = try app(store, "notes", "list", "--json").standardOutput.split(separator: "\n")
        #expect(list.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(list[1].utf8)) as? [String: Any])
        #expect(first["title"] as? String == "Groceries" && first["id"] as? Int == 1)

        #expect(try app(store, "notes", "edit", "1", "--body", "milk, eggs").exitCode == 0)
        #expect(try app(store, "notes", "attach", "1", "--image", image.path).exitCode == 0)
        let shown = try app(store, "notes", "show", "1").standardOutput
        #expect(shown.contains("milk, eggs") && shown.contains("image 1: 30x10 px"))
        #expect(try app(store, "notes", "list", "--search", "EGG").standardOutput.contains("\tGroceries\t1 image\t\t\n"))
        #expect(try app(store, "notes", "delete", "2").exitCode == 0)
        #expect(try app(store, "notes", "list").standardOutput.split(separator: "\n").count == 1)
        let gone = try app(store, "notes", "show", "2")
        #expect(gone.exitCode == 1 && gone.standardError == "uncloudnotes: there is no note 2 (see uncloudnotes notes list)\n")
    }

    @Test("errors: one line on stderr, exit code 1 for failures and 2 for usage", arguments: [
        (["notes", "show", "42"], Int32(1), "no such store"),
        (["notes", "add", "--title", "x", "--image", "/nonexistent/a.png"], Int32(1), "/nonexistent/a.png: no such file"),
        (["notes", "add"], Int32(2), "give --title, or the note as text (its first line the title)"),
        (["notes", "add", "--title", "  "], Int32(2), "--title must not be empty"),
    ])
    func errors(arguments: [String], code: Int32, message: String) throws {
        let folder = try TemporaryFolder()
        let result = try BuiltExecutable.run(["--store", folder.url.appendingPathComponent("n.sqlite").path] + arguments)
        #expect(result.exitCode == code)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        if code == 1 { #expect(result.standardError.split(separator: "\n").count == 1) }
    }

    @Test("the v1 app has no images: attaching is refused, nothing stored")
    func versionLimits() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 8, height: 8)
        _ = try app(store, "--model-version", "v1", "notes", "add", "--title", "Old", "--body", "")
        let attach = try app(store, "--model-version", "v1", "notes", "attach", "1", "--image", image.path)
        #expect(attach.exitCode == 1)
        #expect(attach.standardError.contains("run as v2 or later"))
    }

    @Test("export and import carry every note and image to another store; Markdown writes the images beside")
    func exportImport() throws {
        let folder = try TemporaryFolder()
        let source = try ProjectFixtures.copyStore("v3", into: folder, as: "source.sqlite")
        let json = folder.url.appendingPathComponent("notes.json")
        #expect(try app(source, "notes", "export", "--output", json.path).exitCode == 0)
        let target = folder.url.appendingPathComponent("target.sqlite")
        #expect(try app(target, "notes", "import", json.path).standardOutput == "imported 4 notes\n")
        let second = folder.url.appendingPathComponent("again.json")
        _ = try app(target, "notes", "export", "--output", second.path)
        let first = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
        let copy = try JSONSerialization.jsonObject(with: Data(contentsOf: second)) as? [String: Any]
        #expect((first?["notes"] as? [[String: Any]])?.count == 4)
        #expect(NSDictionary(dictionary: first ?? [:]).isEqual(to: copy ?? [:]))

        let markdown = folder.url.appendingPathComponent("md")
        #expect(try app(source, "notes", "export", "--markdown", markdown.path).exitCode == 0)
        let text = try String(contentsOf: markdown.appendingPathComponent("notes.md"), encoding: .utf8)
        // Album is note 1 (the oldest, listed last): its images are named by that number.
        #expect(text.contains("## Album") && text.contains("](images/note-1-1.png)") && text.contains("](images/note-1-3.png)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: markdown.appendingPathComponent("images").path).count == 6)
    }

    @Test("a file that is not an export is refused and nothing is imported")
    func badImport() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        let bad = try folder.write(#"{"format":"something-else","formatVersion":1,"modelVersion":"x","notes":[]}"#, to: "bad.json")
        let result = try app(store, "notes", "import", bad.path)
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("not an UnCloudNotes export (format \"something-else\")"))
        let broken = try folder.write(#"{"format":"uncloudnotes-notes","formatVersion":1,"modelVersion":"x","notes":[{"title":"t","body":"","images":[{"data":"aGVsbG8="}]}]}"#, to: "broken.json")
        let second = try app(store, "notes", "import", broken.path)
        #expect(second.exitCode == 1 && second.standardError.contains("image 1 of note 1 (“t”) is refused: it is a text file, not an image"))
        #expect(try app(store, "notes", "list").standardOutput.isEmpty)
    }
}
