import Foundation
import ManagedStore
import Testing
import TestSupport

@Suite("uncloudnotes model show")
struct ModelShowCommandTests {
    @Test("lists the app's versions, marks the current one and prints entity hashes")
    func textListing() throws {
        let result = try BuiltExecutable.run(["model", "show"])
        #expect(result.exitCode == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "UnCloudNotesDataModel: 5 versions, current UnCloudNotesDataModel v5")
        #expect(lines.contains("* UnCloudNotesDataModel v5  (current)") && lines.contains("  UnCloudNotesDataModel v4"))
        #expect(lines.contains("  UnCloudNotesDataModel v2"))
        #expect(lines.contains("    entity ImageAttachment : Attachment"))
        #expect(lines.contains { $0.hasPrefix("      image") && $0.hasSuffix("optional, transformer ImageTransformer") })
        let hashLines = lines.filter { $0.hasPrefix("      hash ") }
        // v1 1, v2 1, v3 2, v4 3, v5 4 entities.
        #expect(hashLines.count == 11)
        #expect(hashLines.allSatisfy { $0.count == "      hash ".count + 64 })
    }

    @Test("--json gives the documented structure, and the same bytes every time")
    func jsonListing() throws {
        let first = try BuiltExecutable.run(["model", "show", "--json"])
        let second = try BuiltExecutable.run(["model", "show", "--json"])
        #expect(first.exitCode == 0)
        #expect(first.standardOutput == second.standardOutput)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
        #expect(json["model"] as? String == "UnCloudNotesDataModel")
        #expect(json["currentVersion"] as? String == "UnCloudNotesDataModel v5")
        let versions = try #require(json["versions"] as? [[String: Any]])
        #expect(versions.map { $0["current"] as? Bool } == [false, false, false, false, true])
        let v4Entities = try #require(versions[3]["entities"] as? [[String: Any]])
        let imageAttachment = try #require(v4Entities.first { $0["name"] as? String == "ImageAttachment" })
        #expect(imageAttachment["parent"] as? String == "Attachment")
        #expect((imageAttachment["versionHash"] as? String)?.count == 64)
        let attributes = try #require(imageAttachment["attributes"] as? [[String: Any]])
        let width = try #require(attributes.first { $0["name"] as? String == "width" })
        #expect(width["type"] as? String == "Float" && width["default"] as? String == "0.0")
        #expect(width["optional"] as? Bool == false)
    }

    @Test("shows any Xcode model given by path", SharedFixtures.required)
    func otherModel() throws {
        let path = SharedFixtures.url("coredata-samplemodel3/SampleModel3.xcdatamodeld").path
        let result = try BuiltExecutable.run(["model", "show", path])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasPrefix("SampleModel3: 3 versions, current SampleModel3\n"))
        #expect(result.standardOutput.contains("hash 6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798"))
    }

    @Test("shows a compiled .mom, here the one Core Data cached in a real store", SharedFixtures.required)
    func compiledModel() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let mom = folder.url.appendingPathComponent("SampleModel3.mom")
        try #require(try StoreModelCache.compiledModelData(storeAt: store)).write(to: mom)
        let result = try BuiltExecutable.run(["model", "show", mom.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("SampleModel3: 1 version, current SampleModel3\n"))
        #expect(result.standardOutput.contains("hash 6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798"))
    }

    @Test("a broken model gives one line on stderr naming file and line, and exit code 1")
    func brokenModel() throws {
        let folder = try TemporaryFolder()
        try folder.write("<model><entity name=\"A\">\n</model>", to: "Bad.xcdatamodel/contents")
        let result = try BuiltExecutable.run(["model", "show", folder.url.appendingPathComponent("Bad.xcdatamodel").path])
        #expect(result.exitCode == 1)
        #expect(result.standardOutput.isEmpty)
        let errorLines = result.standardError.split(separator: "\n")
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.hasPrefix("uncloudnotes: \(folder.url.path)/Bad.xcdatamodel/contents:2: malformed XML") == true)
    }

    @Test("a relationship maxCount above 2^32-1 is shown with its hash, not a trap (exit 132)")
    func hugeMaxCount() throws {
        let folder = try TemporaryFolder()
        let version = try ModelFiles.writeVersion("Huge", entities: """
            <entity name="E"><relationship name="f" optional="YES" toMany="YES" maxCount="99999999999" destinationEntity="E"/></entity>
            """, in: folder.url)
        let result = try BuiltExecutable.run(["model", "show", version.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("hash "))
    }

    @Test("hostile files end in one line naming the file and exit code 1",
          arguments: ["invalid UTF-8", "deep nesting"])
    func hostileFile(kind: String) throws {
        let folder = try TemporaryFolder()
        let contents = folder.url.appendingPathComponent("Bad.xcdatamodel/contents")
        try FileManager.default.createDirectory(at: contents.deletingLastPathComponent(), withIntermediateDirectories: true)
        let bytes: [UInt8] = kind == "deep nesting"
            ? Array(("<model>" + String(repeating: "<a>", count: 100_000)).utf8)
            : Array("<model><ent".utf8) + [0xFF] + Array("ity name=\"A\"/></model>".utf8)
        try Data(bytes).write(to: contents)
        let result = try BuiltExecutable.run(["model", "show", contents.deletingLastPathComponent().path])
        #expect(result.exitCode == 1)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.hasPrefix("uncloudnotes: \(contents.path):"))
    }

    @Test("a usage error exits with code 2")
    func usageError() throws {
        let result = try BuiltExecutable.run(["model", "show", "--no-such-flag"])
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("Unknown option '--no-such-flag'"))
    }

    @Test("every command's --help has examples", arguments: [
        [], ["notes"], ["notes", "list"], ["notes", "show"], ["notes", "add"], ["notes", "edit"], ["notes", "attach"],
        ["notes", "delete"], ["notes", "export"], ["notes", "import"], ["store"], ["store", "info"], ["store", "migrate"],
        ["store", "export"], ["model"], ["model", "show"], ["walkthrough"], ["sample"], ["sample", "open"],
    ])
    func everyHelp(command: [String]) throws {
        let result = try BuiltExecutable.run(command + ["--help"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("Examples:\n  uncloudnotes"), "\(command)")
    }

    @Test("--help teaches with examples")
    func help() throws {
        let result = try BuiltExecutable.run(["model", "show", "--help"])
        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("Examples:"))
        #expect(result.standardOutput.contains("uncloudnotes model show ~/Projects/App/Model.xcdatamodeld --json"))
    }
}
