import Foundation
import Testing
import TestSupport

/// What the notes commands print: safe for a terminal, one parseable line per note, JSON on
/// request for every report, English plurals.
@Suite("notes …: output that is safe, scriptable and bounded")
struct NotesOutputTests {
    private func app(_ store: URL, _ arguments: String...) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run(["--store", store.path] + arguments)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static let hostileTitle = "Evil\u{1B}]0;pwned\u{07}\tTab\nNewline\u{9B}2J"
    static let hostileBody = "x\u{1B}[2J\u{1B}]52;c;aGk=\u{07}y\u{7F}"

    @Test("titles and bodies never send control characters to the terminal; list rows keep their six fields (v5)")
    func noTerminalInjection() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        #expect(try app(store, "notes", "add", "--title", Self.hostileTitle, "--body", Self.hostileBody).exitCode == 0)
        let list = try app(store, "notes", "list").standardOutput
        let shown = try app(store, "notes", "show", "1").standardOutput
        for output in [list, shown] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x7F || $0.value == 0x9B })
        }
        let fields = list.dropLast().split(separator: "\t", omittingEmptySubsequences: false)
        #expect(list.filter { $0 == "\n" }.count == 1 && fields.count == 6)
        #expect(fields[2] == "Evil^[]0;pwned^G\\tTab\\nNewline<U+009B>2J")
        #expect(shown.contains("x^[[2J^[]52;c;aGk=^Gy^?"))

        let line = try app(store, "notes", "list", "--json").standardOutput
        #expect(line.contains("\\u001b") && !line.contains("\u{1B}"))
        #expect(try json(line)["title"] as? String == Self.hostileTitle.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("imported notes are shown as safely, and error messages never echo raw control characters")
    func importAndErrors() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let archive = #"{"format":"uncloudnotes-notes","formatVersion":1,"modelVersion":"x","notes":[{"title":"\u001b]0;owned\u0007","body":"","images":[]}]}"#
        let file = try folder.write(archive, to: "hostile.json")
        #expect(try app(store, "notes", "import", file.path).standardOutput == "imported 1 note\n")
        #expect(try app(store, "notes", "list").standardOutput.contains("\t^[]0;owned^G\t"))
        let missing = try app(store, "notes", "import", folder.url.appendingPathComponent("a\u{1B}[2J.json").path)
        #expect(missing.exitCode == 1 && missing.standardError.contains("a^[[2J.json: no such file"))
        #expect(!missing.standardError.contains("\u{1B}"))
    }

    @Test("list: newest first, --limit and --offset page through")
    func paging() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        for number in 1...5 { _ = try app(store, "notes", "add", "--title", "note \(number)", "--body", "") }
        let ids = { (output: String) in output.split(separator: "\n").map { $0.split(separator: "\t")[0] } }
        #expect(ids(try app(store, "notes", "list").standardOutput) == ["5", "4", "3", "2", "1"])
        #expect(ids(try app(store, "notes", "list", "--limit", "2", "--offset", "1").standardOutput) == ["4", "3"])
        #expect(ids(try app(store, "notes", "list", "--offset", "4").standardOutput) == ["1"])
        #expect(ids(try app(store, "notes", "list", "--search", "NOTE 3").standardOutput) == ["3"])
        #expect(try app(store, "notes", "list", "--limit", "-1").exitCode == 2)
        _ = try app(store, "notes", "add", "--title", "Café", "--body", "Crème brûlée")
        for search in ["creme", "BRULEE", "CRÈME", "café"] {
            #expect(ids(try app(store, "notes", "list", "--search", search).standardOutput) == ["6"], "\(search)")
        }
        #expect(ids(try app(store, "notes", "list", "--search", "cremes").standardOutput).isEmpty)
    }

    @Test("--json on edit, attach, caption, delete, import and export; plurals in words")
    func jsonReports() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 30, height: 10)
        #expect(try json(app(store, "notes", "add", "--title", "T", "--body", "b", "--json").standardOutput)["id"] as? Int == 1)
        let edit = try json(app(store, "notes", "edit", "1", "--title", "T2", "--json").standardOutput)
        #expect(edit["id"] as? Int == 1 && edit["changed"] as? [String] == ["title"])
        #expect(try app(store, "notes", "attach", "1", "--image", image.path).standardOutput == "attached 1 image to note 1\n")
        let attach = try json(app(store, "notes", "attach", "1", "--image", image.path, "--image", image.path, "--json").standardOutput)
        #expect(attach["attached"] as? Int == 2 && attach["images"] as? Int == 3)
        let caption = try json(app(store, "notes", "caption", "1", "2", "Second", "--json").standardOutput)
        #expect(caption["caption"] as? String == "Second" && caption["image"] as? Int == 2)
        let exported = folder.url.appendingPathComponent("out.json")
        let export = try json(app(store, "notes", "export", "--output", exported.path, "--json").standardOutput)
        #expect(export["notes"] as? Int == 1 && export["path"] as? String == exported.path)
        let imported = try json(app(store, "notes", "import", exported.path, "--as-new", "--json").standardOutput)
        #expect(imported["imported"] as? Int == 1 && imported["skipped"] as? Int == 0)
        let delete = try json(app(store, "notes", "delete", "1", "--json").standardOutput)
        #expect(delete["deleted"] as? Bool == true && delete["images"] as? Int == 3)
        #expect(try app(store, "notes", "delete", "2").standardOutput == "deleted note 2 and its 3 images\n")
    }

    @Test("captions: a new image's caption is \"New Photo\" (never the body) or --caption's; notes caption edits one (v4)")
    func captions() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 8, height: 8)
        _ = try app(store, "notes", "add", "--title", "Trip", "--body", "milk, eggs", "--image", image.path)
        #expect(try app(store, "notes", "attach", "1", "--image", image.path).exitCode == 0)
        #expect(try app(store, "notes", "attach", "1", "--image", image.path, "--caption", "Sea 🌊").exitCode == 0)
        let shown = try json(app(store, "notes", "show", "1", "--json").standardOutput)
        let images = try #require(shown["images"] as? [[String: Any]])
        #expect(images.map { $0["caption"] as? String } == ["New Photo", "New Photo", "Sea 🌊"])
        #expect(try app(store, "notes", "caption", "1", "1", "At the beach").exitCode == 0)
        #expect(try app(store, "notes", "show", "1").standardOutput.contains("caption: At the beach"))
        let missing = try app(store, "notes", "caption", "1", "4", "x")
        #expect(missing.exitCode == 1 && missing.standardError.contains("note 1 has no image 4 (it has 3 images;"))

        let v3 = folder.url.appendingPathComponent("v3.sqlite")
        _ = try app(v3, "--model-version", "v3", "notes", "add", "--title", "Old", "--body", "", "--image", image.path)
        let refused = try app(v3, "--model-version", "v3", "notes", "caption", "1", "1", "x")
        #expect(refused.exitCode == 1 && refused.standardError.contains("no captions (run as v4)"))
        let attachRefused = try app(v3, "--model-version", "v3", "notes", "attach", "1", "--image", image.path, "--caption", "x")
        #expect(attachRefused.exitCode == 1 && attachRefused.standardError.contains("no captions (run as v4)"))
        #expect(try app(v3, "--model-version", "v3", "notes", "show", "1").standardOutput.contains("image 1:") && !(try app(v3, "--model-version", "v3", "notes", "show", "1").standardOutput.contains("image 2:")), "nothing attached")
    }

    @Test("v2 holds one image: attaching another is refused unless --replace")
    func oneImageInV2() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let first = try folder.writeImage(named: "first.png", width: 30, height: 10)
        let second = try folder.writeImage(named: "second.png", width: 12, height: 34)
        _ = try app(store, "--model-version", "v2", "notes", "add", "--title", "One", "--body", "", "--image", first.path)
        let refused = try app(store, "--model-version", "v2", "notes", "attach", "1", "--image", second.path)
        #expect(refused.exitCode == 1 && refused.standardError.contains("already has its one image"))
        #expect(try app(store, "--model-version", "v2", "notes", "show", "1").standardOutput.contains("image 1: 30x10 px"))
        #expect(try app(store, "--model-version", "v2", "notes", "attach", "1", "--image", second.path, "--replace").exitCode == 0)
        #expect(try app(store, "--model-version", "v2", "notes", "show", "1").standardOutput.contains("image 1: 12x34 px"))
    }

    @Test("images: formats named in --help, a PDF named as a PDF, a bomb refused by its header, a photo accepted")
    func imageChecks() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let help = try BuiltExecutable.run(["notes", "attach", "--help"]).standardOutput
        #expect(help.contains("Accepted formats: PNG, JPEG, GIF, WebP"))
        // This machine's decodable formats, asked of gdk-pixbuf only when the command is used.
        #expect(help.contains("An image file (PNG, JPEG, GIF"))
        let pdf = try folder.write("%PDF-1.4\n1 0 obj\n", to: "report.pdf")
        let refused = try app(store, "notes", "add", "--title", "R", "--body", "", "--image", pdf.path)
        #expect(refused.exitCode == 1)
        #expect(refused.standardError.contains("report.pdf: it is a PDF document, not an image; supported: PNG, JPEG, GIF"))
        let bomb = folder.url.appendingPathComponent("bomb.png")
        try TestImages.pngBomb(width: 30000, height: 30000).write(to: bomb)
        let bombed = try app(store, "notes", "add", "--title", "B", "--body", "", "--image", bomb.path)
        #expect(bombed.exitCode == 1 && bombed.standardError.contains("30000x30000 pixels, more than the limit of 50 megapixels"))
        let archive = #"{"format":"uncloudnotes-notes","formatVersion":1,"modelVersion":"x","notes":[{"title":"B","body":"","images":[{"data":"\#(TestImages.pngBomb(width: 30000, height: 30000).base64EncodedString())"}]}]}"#
        let imported = try app(store, "notes", "import", try folder.write(archive, to: "bomb.json").path)
        #expect(imported.exitCode == 1 && imported.standardError.contains("is refused: the image is 30000x30000 pixels"))
        let photo = try folder.writeImage(named: "photo.jpg", width: 4000, height: 3000, format: "jpeg")
        #expect(try app(store, "notes", "add", "--title", "Photo", "--body", "", "--image", photo.path).exitCode == 0)
        #expect(try app(store, "notes", "list").standardOutput.split(separator: "\n").count == 1)
    }

    @Test("export: one-line errors, --markdown and --output exclusive, newest first, private files")
    func export() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 8, height: 8)
        _ = try app(store, "notes", "add", "--title", "Older", "--body", "", "--image", image.path)
        _ = try app(store, "notes", "add", "--title", "Newer", "--body", "")
        let existing = try folder.write("mine", to: "existing.txt")
        let ontoFile = try app(store, "notes", "export", "--markdown", existing.path)
        #expect(ontoFile.exitCode == 1 && ontoFile.standardError.split(separator: "\n").count == 1)
        #expect(ontoFile.standardError.contains("\(existing.path) exists and is not a folder"))
        #expect(!ontoFile.standardError.contains("NSCocoaErrorDomain"))
        #expect(try String(contentsOf: existing, encoding: .utf8) == "mine")
        let both = try app(store, "notes", "export", "--markdown", folder.url.appendingPathComponent("md").path, "--output", "x.json")
        #expect(both.exitCode == 2 && both.standardError.contains("give one of them"))

        let markdown = folder.url.appendingPathComponent("md")
        #expect(try app(store, "notes", "export", "--markdown", markdown.path).standardOutput.hasPrefix("wrote 2 notes to"))
        let text = try String(contentsOf: markdown.appendingPathComponent("notes.md"), encoding: .utf8)
        let newer = try #require(text.range(of: "## Newer")), older = try #require(text.range(of: "## Older"))
        #expect(newer.lowerBound < older.lowerBound)
        let output = folder.url.appendingPathComponent("notes.json")
        _ = try app(store, "notes", "export", "--output", output.path)
        for (path, mode) in [(markdown.path, 0o700), (markdown.appendingPathComponent("images").path, 0o700),
                             (markdown.appendingPathComponent("notes.md").path, 0o600),
                             (markdown.appendingPathComponent("images/note-1-1.png").path, 0o600), (output.path, 0o600)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
        }
    }

    @Test("Markdown: titles and captions written as notes list prints them, bodies as notes show does; JSON keeps them exact")
    func markdownEscapes() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let image = try folder.writeImage(named: "a.png", width: 8, height: 8)
        #expect(try app(store, "notes", "add", "--title", Self.hostileTitle, "--body", Self.hostileBody, "--image", image.path).exitCode == 0)
        #expect(try app(store, "notes", "caption", "1", "1", "cap\u{1B}]0;x\u{07}] [\nnext").exitCode == 0)
        let markdown = folder.url.appendingPathComponent("md")
        #expect(try app(store, "notes", "export", "--markdown", markdown.path).exitCode == 0)
        let text = try String(contentsOf: markdown.appendingPathComponent("notes.md"), encoding: .utf8)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x7F || $0.value == 0x9B })
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains("## Evil^[]0;pwned^G\\tTab\\nNewline<U+009B>2J"), "\(text)")
        #expect(lines.contains("x^[[2J^[]52;c;aGk=^Gy^?"))
        #expect(lines.contains("![cap^[\\]0;x^G\\] [\\nnext](images/note-1-1.png) <!-- 8x8 px -->"), "\(text)")

        // The JSON export keeps the text exactly, and import reads it back.
        let exported = folder.url.appendingPathComponent("notes.json")
        #expect(try app(store, "notes", "export", "--output", exported.path).exitCode == 0)
        let copy = folder.url.appendingPathComponent("copy.sqlite")
        #expect(try app(copy, "notes", "import", exported.path).standardOutput == "imported 1 note\n")
        let shown = try json(try app(copy, "notes", "show", "1", "--json").standardOutput)
        #expect(shown["title"] as? String == Self.hostileTitle && shown["body"] as? String == Self.hostileBody)
    }

    @Test("Markdown image files are named by their note's number, the same in every export")
    func markdownImageNames() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("n.sqlite")
        let png = try folder.writeImage(named: "a.png", width: 8, height: 8)
        let jpeg = try folder.writeImage(named: "b.jpg", width: 8, height: 8, format: "jpeg")
        for title in ["one", "two", "three"] { _ = try app(store, "notes", "add", "--title", title, "--body", "", "--image", png.path) }
        _ = try app(store, "notes", "attach", "2", "--image", jpeg.path)
        let images = { (name: String) throws -> [String] in
            let markdown = folder.url.appendingPathComponent(name)
            #expect(try self.app(store, "notes", "export", "--markdown", markdown.path).exitCode == 0)
            return try FileManager.default.contentsOfDirectory(atPath: markdown.appendingPathComponent("images").path).sorted()
        }
        #expect(try images("first") == ["note-1-1.png", "note-2-1.png", "note-2-2.jpg", "note-3-1.png"])
        #expect(try app(store, "notes", "delete", "1").exitCode == 0)
        #expect(try images("second") == ["note-2-1.png", "note-2-2.jpg", "note-3-1.png"])
        let text = try String(contentsOf: folder.url.appendingPathComponent("second/notes.md"), encoding: .utf8)
        let two = try #require(text.range(of: "## two")), three = try #require(text.range(of: "## three"))
        #expect(three.lowerBound < two.lowerBound)
        #expect(text[two.upperBound...].contains("](images/note-2-2.jpg)"))
    }
}
