import Foundation
import Testing
import TestSupport

@Suite("uncloudnotes model diff")
struct ModelDiffCommandTests {
    @Test("the app's v1 -> v4 as one jump: Core Data could infer it (v1 has no image to move)")
    func chapter() throws {
        let result = try BuiltExecutable.run(["model", "diff", "v1", "v4"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "UnCloudNotesDataModel -> UnCloudNotesDataModel v4")
        for expected in ["  + added entity Attachment: inferred (add entity)", "  + added entity ImageAttachment: inferred (add entity)",
                         "  + added relationship Note.attachments: inferred (add relationship)",
                         "  Note: changes", "  Attachment: new", "  ImageAttachment: new"] {
            #expect(lines.contains(expected), "missing: \(expected)")
        }
        #expect(lines.last == "migration: lightweight; Core Data infers it (no mapping model needed)")
    }

    @Test("the app's v2 -> v4: the image moved into a new entity needs a mapping model")
    func imageMoved() throws {
        let result = try BuiltExecutable.run(["model", "diff", "v2", "v4"])
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("  + removed attribute Note.image: inferred (remove attribute)"))
        #expect(lines.contains("  ! attribute Note.image moved to new entity ImageAttachment: needs a mapping model"))
        #expect(lines.last == "migration: needs a mapping model (1 change(s) marked ! cannot be inferred)")
    }

    @Test("--json: changes with their rules, hash changes, and whether it is inferable")
    func json() throws {
        let result = try BuiltExecutable.run(["model", "diff", "v1", "v2", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["isInferable"] as? Bool == true)
        let changes = try #require(report["changes"] as? [[String: Any]])
        #expect(changes.count == 1 && changes[0]["rule"] as? String == "add optional attribute" && changes[0]["property"] as? String == "image")
        #expect((report["hashChanges"] as? [[String: Any]])?.compactMap { $0["entity"] as? String } == ["Note"])
    }

    @Test("a name that is neither a version nor a file is a usage error naming the versions")
    func unknownVersion() throws {
        let result = try BuiltExecutable.run(["model", "diff", "v1", "v9"])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("v9 is neither a version of UnCloudNotesDataModel"))
    }
}
