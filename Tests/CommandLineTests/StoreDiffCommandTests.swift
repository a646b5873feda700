import Foundation
import Testing
import TestSupport

@Suite("uncloudnotes store diff")
struct StoreDiffCommandTests {
    @Test("a store before and after v3 -> v4: each Attachment became an ImageAttachment with the same image, notes changed only in their links")
    func migrationShowsExactlyTheMapping() throws {
        let folder = try TemporaryFolder()
        let before = try ProjectFixtures.copyStore("v3", into: folder, as: "before.sqlite")
        let after = try ProjectFixtures.copyStore("v3", into: folder, as: "after.sqlite")
        #expect(try BuiltExecutable.run(["store", "migrate", after.path, "--to", "v4"]).exitCode == 0)
        let result = try BuiltExecutable.run(["store", "diff", before.path, after.path, "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let entities = try #require(report["entities"] as? [String: [String: Any]])
        #expect(Set(entities.keys) == ["Attachment", "ImageAttachment", "Note"])
        let removed = try #require(entities["Attachment"]?["removed"] as? [[String: Any]])
        let added = try #require(entities["ImageAttachment"]?["added"] as? [[String: Any]])
        let images = { (objects: [[String: Any]]) in objects.compactMap { ($0["values"] as? [String: String])?["image"] } }
        #expect(removed.count == 6 && images(added) == images(removed))
        #expect((entities["Attachment"]?["added"] as? [Any])?.isEmpty == true)
        let changed = try #require(entities["Note"]?["changed"] as? [[String: Any]])
        #expect(changed.allSatisfy { ($0["values"] as? [String: Any]).map { Array($0.keys) } == ["attachments"] })
    }

    @Test("a store before and after v2 -> v3: an Attachment per note with an image, the same bytes; notes lose image and gain attachments, nothing else")
    func imageMovedToAttachment() throws {
        let folder = try TemporaryFolder()
        let before = try ProjectFixtures.copyStore("v2", into: folder, as: "before.sqlite")
        let after = try ProjectFixtures.copyStore("v2", into: folder, as: "after.sqlite")
        #expect(try BuiltExecutable.run(["store", "migrate", after.path, "--to", "v3"]).exitCode == 0)
        let result = try BuiltExecutable.run(["store", "diff", before.path, after.path, "--json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let entities = try #require(report["entities"] as? [String: [String: Any]])
        #expect(Set(entities.keys) == ["Attachment", "Note"])
        let added = try #require(entities["Attachment"]?["added"] as? [[String: Any]])
        let changed = try #require(entities["Note"]?["changed"] as? [[String: Any]])
        #expect((entities["Note"]?["added"] as? [Any])?.isEmpty == true && (entities["Note"]?["removed"] as? [Any])?.isEmpty == true)
        // Each changed value is [before, after].
        let values = changed.compactMap { $0["values"] as? [String: [Any]] }
        #expect(values.count == changed.count && values.allSatisfy { Set($0.keys) == ["attachments", "image"] })
        // Each note's image went to exactly the attachment the mapping made for it.
        let moved = values.compactMap { $0["image"]?.first as? String }.filter { $0 != "nil" }.sorted()
        let images = added.compactMap { ($0["values"] as? [String: String])?["image"] }.sorted()
        #expect(!images.isEmpty && moved == images, "\(moved) \(images)")
    }

    @Test("objects matched by an attribute: the same notes under other keys are no difference; a changed body is")
    func matchedByAttribute() throws {
        let folder = try TemporaryFolder()
        let first = folder.url.appendingPathComponent("a.sqlite"), second = folder.url.appendingPathComponent("b.sqlite")
        for (store, titles) in [(first, ["one", "two"]), (second, ["two", "one"])] {
            for title in titles {
                #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", title, "--body", "same"]).exitCode == 0)
            }
        }
        let byKey = try BuiltExecutable.run(["store", "diff", first.path, second.path])
        #expect(byKey.standardOutput.hasPrefix("Note: 0 added, 0 removed, 2 changed"))
        // Creation dates differ between the two stores: compare titles and bodies only.
        #expect(try BuiltExecutable.run(["--store", second.path, "notes", "edit", "1", "--body", "changed"]).exitCode == 0)
        let byTitle = try BuiltExecutable.run(["store", "diff", first.path, second.path, "--match", "Note.title"])
        let lines = byTitle.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "Note: 0 added, 0 removed, 2 changed")
        #expect(lines.contains("      body: \"same\" -> \"changed\""))
        #expect(try BuiltExecutable.run(["store", "diff", first.path, first.path]).standardOutput == "no differences\n")
    }

    @Test("--match names related objects the same way: tags made in another order are no difference (issue #38)")
    func matchedRelationships() throws {
        let folder = try TemporaryFolder()
        let first = folder.url.appendingPathComponent("a.sqlite"), second = folder.url.appendingPathComponent("b.sqlite")
        // The same notes and tags, made in the opposite order: every primary key differs.
        for (store, notes) in [(first, [("one", "home"), ("two", "work")]), (second, [("two", "work"), ("one", "home")])] {
            for (title, tag) in notes {
                #expect(try BuiltExecutable.run(["--store", store.path, "notes", "add", "--title", title, "--body", "same", "--tag", tag]).exitCode == 0)
            }
        }
        let matched = try BuiltExecutable.run(["store", "diff", first.path, second.path, "--match", "Note.title", "--match", "Tag.name"])
        #expect(!matched.standardOutput.contains("tags:") && !matched.standardOutput.contains("notes:"), "\(matched.standardOutput)")
        #expect(!matched.standardOutput.contains("Tag:"), "\(matched.standardOutput)")
        let byKey = try BuiltExecutable.run(["store", "diff", first.path, second.path, "--match", "Note.title"])
        #expect(byKey.standardOutput.contains("tags: [Tag/"), "tags not matched are still named by key: \(byKey.standardOutput)")
    }

    @Test("objects are listed in the order of their keys' numbers: Note/2 before Note/10")
    func numericOrder() throws {
        let folder = try TemporaryFolder()
        let before = try ProjectFixtures.copyStore("v1", into: folder, as: "before.sqlite")
        let after = try ProjectFixtures.copyStore("v1", into: folder, as: "after.sqlite")
        let ids = try BuiltExecutable.run(["--model-version", "v1", "--store", after.path, "notes", "list"]).standardOutput
            .split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
        #expect(ids.count > 10)
        for id in ids { #expect(try BuiltExecutable.run(["--model-version", "v1", "--store", after.path, "notes", "delete", id]).exitCode == 0) }
        let removed = try BuiltExecutable.run(["store", "diff", before.path, after.path]).standardOutput
            .split(separator: "\n").filter { $0.hasPrefix("  - Note/") }.compactMap { Int($0.dropFirst("  - Note/".count).prefix { $0.isNumber }) }
        #expect(removed.count == ids.count && removed == removed.sorted())
    }

    @Test("--match without an attribute is a usage error; an attribute neither model has is refused by name")
    func badMatch() throws {
        #expect(try BuiltExecutable.run(["store", "diff", "a.sqlite", "b.sqlite", "--match", "Note"]).exitCode == 2)
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        for match in ["Note.nope", "Nope.title"] {
            let result = try BuiltExecutable.run(["store", "diff", store.path, store.path, "--match", match])
            #expect(result.exitCode == 1 && result.standardError.contains("to match objects by"), "\(match): \(result.standardError)")
        }
    }
}
