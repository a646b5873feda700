import Foundation
import Testing
import TestSupport

/// v5 from the command line: tags, pins, the list's filters and orders, and exports that carry
/// identifiers, merged by them on import.
@Suite("uncloudnotes notes at v5: tags, pins, sort, merge")
struct NotesV5CommandTests {
    private func app(_ store: URL, _ arguments: String..., environment: [String: String] = ["TZ": "UTC"]) throws -> BuiltExecutable.Result {
        try BuiltExecutable.run(["--store", store.path] + arguments, environment: environment)
    }

    private func lines(_ result: BuiltExecutable.Result) -> [String] {
        result.standardOutput.split(separator: "\n").map(String.init)
    }

    private func json(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// Three notes: 1 "Plan" (work, home), 2 "Shopping" (no tags), 3 "Report" (work).
    private func threeNotes(in folder: TemporaryFolder) throws -> URL {
        let store = folder.url.appendingPathComponent("notes.sqlite")
        for arguments in [["--title", "Plan", "--body", "a", "--tag", "work", "--tag", "home"], ["--title", "Shopping", "--body", "milk"],
                          ["--title", "Report", "--body", "q3", "--tag", "work"]] {
            let added = try BuiltExecutable.run(["--store", store.path, "notes", "add"] + arguments)
            try #require(added.exitCode == 0, "\(added.standardError)")
        }
        return store
    }

    @Test("tags on add, edit and tag; counts; rename merging; list --tag")
    func tags() throws {
        let folder = try TemporaryFolder()
        let store = try threeNotes(in: folder)
        #expect(lines(try app(store, "notes", "tags")) == ["home\t1", "work\t2"])
        #expect(try app(store, "notes", "tag", "2", "--add", "errands", "--add", "later").standardOutput == "note 2: errands, later\n")
        #expect(try app(store, "notes", "tag", "2", "--remove", "later").standardOutput == "note 2: errands\n")
        #expect(lines(try app(store, "notes", "list", "--tag", "work")).map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] } == ["Report", "Plan"])
        #expect(try app(store, "notes", "tag", "rename", "errands", "work").standardOutput == "merged tag errands into work (1 note)\n")
        #expect(try app(store, "notes", "tag", "rename", "home", "house", "--json").standardOutput
                == #"{"changed":true,"merged":false,"new":"house","notes":1,"old":"home"}"# + "\n")
        #expect(lines(try app(store, "notes", "tags")) == ["house\t1", "work\t3"])
        #expect(try app(store, "notes", "edit", "1", "--tag", "solo").exitCode == 0)
        #expect(try json(try #require(lines(try app(store, "notes", "tags", "--json")).first))["notes"] as? Int == 1)
        #expect(lines(try app(store, "notes", "tags")) == ["solo\t1", "work\t2"], "house went with the last note that had it")
        #expect(try app(store, "notes", "show", "1").standardOutput.contains("\ntags: solo\n"))
        #expect(try app(store, "notes", "list", "--tag", "nothing").standardOutput == "")
    }

    @Test("café typed either way is one tag; a rename onto itself says nothing changed; #work lists the tag (issue #38, bugs 1, 4, 5)")
    func tagSpellings() throws {
        let folder = try TemporaryFolder()
        let store = try threeNotes(in: folder)
        #expect(try app(store, "notes", "tag", "1", "--add", "caf\u{E9}").exitCode == 0)
        #expect(try app(store, "notes", "tag", "2", "--add", "cafe\u{301}").exitCode == 0)
        #expect(try app(store, "notes", "tag", "3", "--add", "#hash").standardOutput == "note 3: hash, work\n")
        let tags = lines(try app(store, "notes", "tags"))
        #expect(tags.map { Array($0.unicodeScalars) } == ["caf\u{E9}\t2", "hash\t1", "home\t1", "work\t2"].map { Array($0.unicodeScalars) })
        #expect(lines(try app(store, "notes", "list", "--tag", "cafe\u{301}")).count == 2)
        let rename = try app(store, "notes", "tag", "rename", "cafe\u{301}", "caf\u{E9}")
        #expect(rename.exitCode == 0 && rename.standardOutput == "tag caf\u{E9} already has that name; nothing changed\n", "\(rename.standardOutput)")
        #expect(try app(store, "notes", "tag", "rename", "work", "work", "--json").standardOutput.contains(#""changed":false"#))
        let byHash = lines(try app(store, "notes", "list", "--search", "#work")).map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
        #expect(byHash == ["Report", "Plan"])
    }

    @Test("a note named by the start of its identifier, as git takes a short hash; a bad or ambiguous one says why (issue #38, bug 3)")
    func identifierPrefix() throws {
        let folder = try TemporaryFolder()
        let store = try threeNotes(in: folder)
        let identifier = try #require(try json(try app(store, "notes", "show", "2", "--json").standardOutput)["identifier"] as? String)
        // Digits alone are a note's number: a start is given up to its first letter at least.
        let letter = identifier.firstIndex { $0.isLetter }.map { identifier.distance(from: identifier.startIndex, to: $0) + 1 } ?? 32
        let shown = try app(store, "notes", "show", String(identifier.prefix(max(8, letter))).lowercased())
        #expect(shown.exitCode == 0 && shown.standardOutput.hasPrefix("Shopping\n"), "\(shown.standardError)")
        #expect(try app(store, "notes", "pin", String(identifier.prefix(max(6, letter)))).standardOutput == "pinned note 2\n")
        // A start with a letter (digits alone are a number): 1 run in 16 once took "0000000" for one.
        let missing = try app(store, "notes", "show", identifier.hasPrefix("F") ? "eeeeeee" : "fffffff")
        #expect(missing.exitCode == 1 && missing.standardError.contains("no note's identifier starts with"), "\(missing.standardError)")
        let bad = try app(store, "notes", "show", "zz")
        #expect(bad.exitCode != 0 && bad.standardError.contains("or the start of a note's identifier (at least 4 hex digits)"), "\(bad.standardError)")
    }

    @Test("quick capture: notes add TEXT, its first line the title, #words tags (issue #38)")
    func quickCapture() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("notes.sqlite")
        #expect(try app(store, "notes", "add", "Groceries: milk, eggs #home").standardOutput == "added note 1\n")
        #expect(try app(store, "notes", "add", "Plan\nwrite the #report for #work").exitCode == 0)
        #expect(lines(try app(store, "notes", "tags")) == ["home\t1", "report\t1", "work\t1"])
        let shown = try app(store, "notes", "show", "2").standardOutput
        #expect(shown.hasPrefix("Plan\n") && shown.contains("\nwrite the #report for #work"), "\(shown)")
        let both = try app(store, "notes", "add", "Text", "--title", "Title")
        #expect(both.exitCode == 2 && both.standardError.contains("not both"), "\(both.standardError)")
        let neither = try app(store, "notes", "add", "--body", "x")
        #expect(neither.exitCode == 2 && neither.standardError.contains("give --title, or the note as text"), "\(neither.standardError)")
    }

    @Test("pin and unpin: pinned first, marked; --pinned; --sort modified shows and orders by the modified date; --since/--until")
    func pinsAndOrder() throws {
        let folder = try TemporaryFolder()
        let store = try threeNotes(in: folder)
        #expect(lines(try app(store, "notes", "list")).map { $0.split(separator: "\t").first.map(String.init) } == ["3", "2", "1"])
        #expect(try app(store, "notes", "pin", "1").standardOutput == "pinned note 1\n")
        let listed = lines(try app(store, "notes", "list"))
        #expect(listed.first?.hasPrefix("1\t") == true && listed.first?.hasSuffix("\tpinned\thome, work") == true, "\(listed)")
        #expect(listed.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 6 })
        #expect(lines(try app(store, "notes", "list", "--pinned")).count == 1)
        #expect(try app(store, "notes", "edit", "2", "--body", "milk, eggs").exitCode == 0)
        #expect(lines(try app(store, "notes", "list", "--sort", "modified")).map { $0.split(separator: "\t").first.map(String.init) } == ["1", "2", "3"])
        let second = try json(try #require(lines(try app(store, "notes", "list", "--sort", "modified", "--json")).dropFirst().first))
        #expect(second["id"] as? Int == 2 && (second["dateModified"] as? String ?? "") >= (second["dateCreated"] as? String ?? "~"))
        #expect(try app(store, "notes", "unpin", "1", "--json").standardOutput == #"{"id":1,"pinned":false}"# + "\n")
        #expect(try app(store, "notes", "list", "--pinned").standardOutput == "")
        #expect(lines(try app(store, "notes", "list", "--sort", "modified")).map { $0.split(separator: "\t").first.map(String.init) } == ["2", "3", "1"],
                "a pin is not an edit: unpinned, note 1 is the oldest change again")
        #expect(lines(try app(store, "notes", "list", "--since", "2001-01-01", "--until", "2999-01-01")).count == 3)
        #expect(try app(store, "notes", "list", "--until", "2001-01-01").standardOutput == "")
        let today = ISO8601DateFormatter().string(from: Date()).prefix(10) // the app runs with TZ=UTC
        #expect(lines(try app(store, "notes", "list", "--until", String(today))).count == 3, "--until a day includes that day")
        #expect(lines(try app(store, "notes", "list", "--since", "yesterday", "--until", "today")).count == 3)
        #expect(lines(try app(store, "notes", "list", "--since", String(today.prefix(7)))).count == 3, "a month")
        #expect(try app(store, "notes", "list", "--until", "yesterday").standardOutput == "")
        let refused = try app(store, "notes", "list", "--since", "tomorrow")
        #expect(refused.exitCode == 2 && refused.standardError.contains("3 days ago"), "\(refused.standardError)")
    }

    @Test("export carries identifier, tags, pin and both dates; importing twice changes nothing and says so; a newer file updates; --as-new copies")
    func exportAndMerge() throws {
        let folder = try TemporaryFolder()
        let store = try threeNotes(in: folder)
        #expect(try app(store, "notes", "pin", "3").exitCode == 0)
        let file = folder.url.appendingPathComponent("notes.json")
        #expect(try app(store, "notes", "export", "--output", file.path).exitCode == 0)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var notes = try #require(document["notes"] as? [[String: Any]])
        let report = try #require(notes.first { $0["title"] as? String == "Report" })
        #expect(report["pinned"] as? Bool == true && report["tags"] as? [String] == ["work"])
        #expect(report["identifier"] is String && report["dateModified"] is String && report["dateCreated"] is String)

        let target = folder.url.appendingPathComponent("target.sqlite")
        #expect(try app(target, "notes", "import", file.path).standardOutput == "imported 3 notes\n")
        let again = try app(target, "notes", "import", file.path)
        #expect(again.exitCode == 0 && again.standardOutput == "nothing changed: the store already holds all 3 notes of the file (--as-new adds copies)\n")
        let identifiers = { (store: URL) in try self.lines(try self.app(store, "notes", "list", "--json")).map { line in
            try self.json(try self.app(store, "notes", "show", "\(try self.json(line)["id"] as? Int ?? 0)", "--json").standardOutput)["identifier"] as? String ?? ""
        } }
        #expect(Set(try identifiers(target)) == Set(try identifiers(store)))

        // The same note edited later elsewhere: the newer version replaces the older.
        let index = try #require(notes.firstIndex { $0["title"] as? String == "Shopping" })
        notes[index]["body"] = "milk, bread"
        notes[index]["tags"] = ["errands"]
        notes[index]["dateModified"] = "2999-01-01T00:00:00Z"
        document["notes"] = notes
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        #expect(try app(target, "notes", "import", file.path).standardOutput == "imported 0 notes; updated 1 to the file's newer version; skipped 2 already in the store (--as-new adds copies)\n")
        let shopping = try #require(lines(try app(target, "notes", "list", "--tag", "errands")).first)
        #expect(shopping.contains("\tShopping\t"))

        #expect(try app(target, "notes", "import", file.path, "--as-new").standardOutput == "imported 3 notes\n")
        let all = try identifiers(target)
        #expect(all.count == 6 && Set(all).count == 6, "copies get new identifiers")
    }

    @Test("Markdown export writes each v5 note's front matter")
    func markdownFrontMatter() throws {
        let folder = try TemporaryFolder()
        let store = try threeNotes(in: folder)
        #expect(try app(store, "notes", "pin", "1").exitCode == 0)
        let out = folder.url.appendingPathComponent("md")
        #expect(try app(store, "notes", "export", "--markdown", out.path).exitCode == 0)
        let text = try String(contentsOf: out.appendingPathComponent("notes.md"), encoding: .utf8)
        let plan = try #require(text.range(of: "## Plan\n\n---\nidentifier: "))
        let block = text[plan.upperBound...].prefix { _ in true }.split(separator: "\n").prefix(6).map(String.init)
        #expect(block[1].hasPrefix("created: ") && block[2].hasPrefix("modified: "), "\(block)")
        #expect(block[3] == "pinned: true" && block[4] == #"tags: ["home", "work"]"# && block[5] == "---", "\(block)")
    }

    @Test("refusals: one line, exit 1 for what the version lacks or the store refuses, 2 for usage", arguments: [
        (["--model-version", "v4", "notes", "pin", "1"], Int32(1), "notes of v4 have no pins (run as v5)"),
        (["--model-version", "v4", "notes", "list", "--tag", "work"], Int32(1), "notes of v4 have no tags (run as v5)"),
        (["--model-version", "v4", "notes", "list", "--sort", "modified"], Int32(1), "notes of v4 have no modified dates (run as v5)"),
        (["notes", "tag", "1", "--add", "a,b"], Int32(1), "a tag name holds no commas or control characters: a,b"),
        (["notes", "add", "--title", "x", "--body", "", "--tag", " "], Int32(2), "--tag: a tag name must not be empty"),
        (["notes", "tag", "rename", "missing", "x"], Int32(1), "there is no tag missing"),
        (["notes", "tag", "1"], Int32(2), "give --add NAME or --remove NAME (or both)"),
        (["notes", "list", "--since", "the day before"], Int32(2), "give a day (2026-05-12), a month (2026-05), today, yesterday"),
        (["notes", "list", "--sort", "title"], Int32(2), "--sort"),
    ])
    func refusals(arguments: [String], code: Int32, message: String) throws {
        let folder = try TemporaryFolder()
        let version = arguments.first == "--model-version" ? ["--model-version", "v4"] : []
        let store = folder.url.appendingPathComponent("notes.sqlite")
        try #require(try BuiltExecutable.run(["--store", store.path] + version + ["notes", "add", "--title", "One", "--body", ""]).exitCode == 0)
        let before = try Data(contentsOf: store)
        let result = try BuiltExecutable.run(["--store", store.path] + arguments)
        #expect(result.exitCode == code, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        if code == 1 { #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)") }
        #expect(try Data(contentsOf: store) == before, "nothing written")
    }

    @Test("--help of the new commands explains them with examples")
    func help() throws {
        for (command, expected) in [(["notes", "tag", "--help"], "notes tag rename urgent soon"), (["notes", "pin", "--help"], "notes list --pinned"),
                                    (["notes", "tags", "--help"], "notes tags --json"), (["notes", "list", "--help"], "--sort <created|modified>"),
                                    (["notes", "import", "--help"], "merge by their"), (["notes", "add", "--help"], "--tag <name>")] {
            let result = try BuiltExecutable.run(command)
            #expect(result.exitCode == 0 && result.standardOutput.contains(expected), "\(command): \(result.standardOutput)")
        }
    }
}

/// The first search of a big store builds its index: it says so rather than wait in silence.
@Suite("The first search of a big store")
struct FirstSearchTests {
    @Test("the upgrade of a 12,000-note v1 store builds the index and says so, so the first search does not; with no index, notes list --search says it builds it, once (issue #38, bug 7)")
    func saysItBuildsTheIndex() throws {
        let folder = try TemporaryFolder()
        let store = try BigV1Store.make(in: folder, notes: 12_000)
        let arguments = ["--store", store.path, "notes", "list", "--search", "note 11999", "--limit", "1"]
        let upgraded = try BuiltExecutable.run(arguments)
        #expect(upgraded.exitCode == 0, "\(upgraded.standardError)")
        #expect(upgraded.standardError.contains("Building the search index beside the store, once"), "\(upgraded.standardError)")
        #expect(upgraded.standardError.contains("Search index ready: 12000 notes indexed"), "\(upgraded.standardError)")
        #expect(!upgraded.standardError.contains("building the search index beside the store, once"), "\(upgraded.standardError)")
        // An index deleted (or a store another program made) is built by the first search, which says so.
        try FileManager.default.removeItem(atPath: store.path + "-search")
        let first = try BuiltExecutable.run(arguments)
        #expect(first.exitCode == 0, "\(first.standardError)")
        #expect(first.standardError.contains("building the search index beside the store, once"), "\(first.standardError)")
        let second = try BuiltExecutable.run(arguments)
        #expect(second.exitCode == 0 && !second.standardError.contains("uilding the search index"), "\(second.standardError)")
        #expect(!first.standardOutput.isEmpty && second.standardOutput == first.standardOutput && upgraded.standardOutput == first.standardOutput,
                "\(first.standardOutput)")
    }
}
