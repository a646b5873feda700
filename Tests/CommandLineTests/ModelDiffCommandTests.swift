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
        // Every change, and nothing else: the lines between the two headings are exactly these.
        let changes = try #require(lines.firstIndex(of: "changes:")), hashes = try #require(lines.firstIndex(of: "version hashes that change:"))
        #expect(Array(lines[(changes + 1)..<hashes]) == ["  + added entity Attachment: inferred (add entity)",
                                                         "  + added entity ImageAttachment: inferred (add entity)",
                                                         "  + added relationship Note.attachments: inferred (add relationship)"])
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

@Suite("uncloudnotes model show, for mapping models")
struct MappingModelShowTests {
    @Test("the app's v3 -> v4 mapping model: entity mappings, the custom policy and every value expression")
    func appsMapping() throws {
        let result = try BuiltExecutable.run(["model", "show", SharedFixtures.packageRoot.appendingPathComponent("Resources/UnCloudNotesMappingModel_v3_to_v4.xcmappingmodel").path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "Mapping model UnCloudNotesMappingModel_v3_to_v4:")
        #expect(lines.contains("  AttachmentToImageAttachment: Attachment → ImageAttachment, policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4"))
        #expect(lines.contains("    note = FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"NoteToNote\", $source.note)"))
    }

    @Test("the app's v2 -> v3 mapping model: the filter, the relationship to the note and each copied attribute")
    func appsFirstMapping() throws {
        let result = try BuiltExecutable.run(["model", "show", SharedFixtures.packageRoot.appendingPathComponent("Resources/UnCloudNotesMappingModel_v2_to_v3.xcmappingmodel").path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "Mapping model UnCloudNotesMappingModel_v2_to_v3:")
        #expect(lines.contains("  NoteToAttachment: Note → Attachment, filter image != nil"))
        #expect(lines.contains("    image = $source.image"))
        #expect(lines.contains("    note = FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"NoteToNote\", $source)"))
        #expect(lines.contains("  NoteToNote: Note → Note"))
    }

    @Test("wibosco's Migration1to2: the renamed attribute's expression", SharedFixtures.required)
    func wiboscoFirstMapping() throws {
        let result = try BuiltExecutable.run(["model", "show", SharedFixtures.url("wibosco-migration-example/Mappings/Migration1to2.xcmappingmodel").path,
                                              "--model", SharedFixtures.url("wibosco-migration-example/CoreDataMigration_Example.xcdatamodeld").path])
        #expect(result.standardOutput == """
            Mapping model Migration1to2:
              PostToPost: Post → Post
                date = $source.date
                hexColor = $source.color
                postID = $source.postID

            """)
    }

    @Test("wibosco's Migration2to3 read against its own model, as JSON", SharedFixtures.required)
    func wibosco() throws {
        let result = try BuiltExecutable.run(["model", "show", SharedFixtures.url("wibosco-migration-example/Mappings/Migration2to3.xcmappingmodel").path,
                                              "--model", SharedFixtures.url("wibosco-migration-example/CoreDataMigration_Example.xcdatamodeld").path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let mappings = try #require(report["entityMappings"] as? [[String: Any]])
        #expect(mappings.compactMap { $0["name"] as? String } == ["ToColor", "PostToPost"])
        #expect(mappings.last?["policy"] as? String == "CoreDataMigration_Example.Post2ToPost3MigrationPolicy")
    }

    @Test("a compiled mapping model (.cdm) is refused by name")
    func compiledRefused() throws {
        let result = try BuiltExecutable.run(["model", "show", "Mapping.cdm"])
        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("compiled mapping models are not read"))
    }
}
