import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("The app's own model files in Resources/")
struct AppModelTests {
    @Test("has the chapter's four versions and the app's own v5 after them, v5 current")
    func fiveVersions() throws {
        let model = try UnCloudNotesModel.load()
        #expect(model.name == "UnCloudNotesDataModel")
        #expect(model.versions.map(\.name) == ["UnCloudNotesDataModel", "UnCloudNotesDataModel v2",
                                               "UnCloudNotesDataModel v3", "UnCloudNotesDataModel v4", "UnCloudNotesDataModel v5"])
        #expect(model.current.name == "UnCloudNotesDataModel v5")
    }

    @Test("each version declares the entities of the chapter's table")
    func entitiesPerVersion() throws {
        let model = try UnCloudNotesModel.load()
        let noteV1 = ["body", "dateCreated", "displayIndex", "title"]
        let expected: [(String, [String: [String]])] = [
            ("UnCloudNotesDataModel", ["Note": noteV1]),
            ("UnCloudNotesDataModel v2", ["Note": ["body", "dateCreated", "displayIndex", "image", "title"]]),
            ("UnCloudNotesDataModel v3", ["Note": noteV1 + ["attachments"],
                                          "Attachment": ["dateCreated", "image", "note"]]),
            ("UnCloudNotesDataModel v4", ["Note": noteV1 + ["attachments"],
                                          "Attachment": ["dateCreated", "note"],
                                          "ImageAttachment": ["dateCreated", "caption", "height", "image", "width", "note"]]),
            ("UnCloudNotesDataModel v5", ["Note": ["body", "dateCreated", "dateModified", "displayIndex", "identifier", "pinned", "title",
                                                   "attachments", "tags"],
                                          "Attachment": ["dateCreated", "identifier", "note"],
                                          "ImageAttachment": ["dateCreated", "identifier", "caption", "height", "image", "width", "note"],
                                          "Tag": ["name", "notes"]]),
        ]
        for (versionName, entities) in expected {
            let version = try #require(model.version(named: versionName))
            let actual = Dictionary(uniqueKeysWithValues: version.entities.map {
                ($0.name, version.allAttributes(of: $0.name).map(\.name) + version.allRelationships(of: $0.name).map(\.name))
            })
            #expect(actual == entities, "\(versionName)")
        }
        let v4 = try #require(model.version(named: "UnCloudNotesDataModel v4"))
        #expect(v4.entity(named: "ImageAttachment")?.parentName == "Attachment")
        let caption = v4.allAttributes(of: "ImageAttachment").first { $0.name == "caption" }
        #expect(caption?.type == .string && caption?.isOptional == false)
    }

    @Test("the chapter's versions' entity hashes equal those of Xcode's own files for the chapter",
          SharedFixtures.required)
    func hashesMatchXcode() throws {
        let ours = try UnCloudNotesModel.load()
        let xcode = try ModelFileReader.read(at: SharedFixtures.xcodeUnCloudNotesModel)
        // v5 is the app's own, after the chapter: Xcode's files stop at v4.
        let chapter = Array(ours.versions.prefix(xcode.versions.count))
        #expect(chapter.map(\.name) == xcode.versions.map(\.name))
        // The chapter ends at v4, its current version; ours goes on to v5.
        #expect(xcode.currentVersionName == "UnCloudNotesDataModel v4" && ours.currentVersionName == "UnCloudNotesDataModel v5")
        for version in chapter {
            let theirs = try #require(xcode.version(named: version.name))
            #expect(version.entityVersionHashes == theirs.entityVersionHashes, "\(version.name)")
            #expect(version.versionChecksum == theirs.versionChecksum)
        }
    }

    @Test("no two versions share a set of hashes, so a store's version is never ambiguous")
    func versionsAreDistinguishable() throws {
        let checksums = try UnCloudNotesModel.load().versions.map(\.versionChecksum)
        #expect(Set(checksums).count == checksums.count)
    }
}
