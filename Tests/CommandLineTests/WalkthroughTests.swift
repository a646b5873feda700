import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("uncloudnotes walkthrough and sample")
struct WalkthroughTests {
    @Test("the walkthrough replays the chapter and keeps its stores, all at v4 in the end")
    func fullWalkthrough() throws {
        let folder = try TemporaryFolder()
        let result = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let output = result.standardOutput
        for expected in ["━━ Step 1", "CREATE TABLE ZNOTE", "Inferred mapping (in place): added optional attribute Note.image",
                         "NoteToAttachment: Note → Attachment, filter image != nil",
                         "note = FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"NoteToNote\", $source)",
                         "policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4", "ImageAttachment (2 rows)",
                         "━━ Step 5", "A v1 store, skipping-from-v1.sqlite, opened by the v4 app:",
                         "Migration Completed Successfully", "The stores are kept in \(folder.url.path)"] {
            #expect(output.contains(expected), "missing: \(expected)")
        }
        let model = try UnCloudNotesModel.load()
        for name in ["UnCloudNotesDataModel.sqlite", "skipping-from-v1.sqlite", "skipping-from-v2.sqlite"] {
            #expect(try StoreMetadata.read(storeAt: folder.url.appendingPathComponent(name)).isCompatible(with: model.current), "\(name)")
        }
    }

    @Test("--step stops early, leaving the store at that version; a non-empty folder is refused")
    func stopEarly() throws {
        let folder = try TemporaryFolder()
        let result = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path, "--step", "2"])
        #expect(result.exitCode == 0)
        #expect(!result.standardOutput.contains("━━ Step 3"))
        let model = try UnCloudNotesModel.load()
        let store = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: model.versions[1]))
        let again = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path])
        #expect(again.exitCode == 1 && again.standardError.contains("not empty"))
    }

    @Test("sample open upgrades a copy in the app; the shipped sample is never changed")
    func sampleOpen() throws {
        let folder = try TemporaryFolder()
        let shipped = BuiltExecutable.url.deletingLastPathComponent()
            .appendingPathComponent("UnCloudNotes_UnCloudNotesResources.resources/SampleStores/v1.sqlite")
        let before = try Data(contentsOf: shipped)
        let tmux = try TmuxSession(command: "'\(BuiltExecutable.url.path)' sample open v1 --dir '\(folder.url.path)'; sleep 60",
                                   environment: ["LANG": "C.UTF-8"])
        try tmux.waitFor("Your notes were upgraded")
        try tmux.press("Enter")
        try tmux.waitFor("Welcome to UnCloudNotes")
        try tmux.press("q")
        #expect(try Data(contentsOf: shipped) == before)
        let copy = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
        #expect(try StoreMetadata.read(storeAt: copy).isCompatible(with: UnCloudNotesModel.load().current))
    }
}

@Suite("uncloudnotes sample open --fresh")
struct SampleFreshTests {
    @Test("--fresh removes the working copy's own files by name, never a user's file that starts the same; the copy is 0600")
    func freshKeepsUserFiles() throws {
        let folder = try TemporaryFolder()
        let store = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
        try Data("old copy".utf8).write(to: store)
        try Data("old backup".utf8).write(to: URL(fileURLWithPath: store.path + ".v1-backup"))
        let mine = try folder.write("keep me", to: "UnCloudNotesDataModel.sqlite notes.txt")
        let myFolder = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite.old")
        try FileManager.default.createDirectory(at: myFolder, withIntermediateDirectories: true)
        // No terminal: the app itself refuses to start (exit 2), after the copy is made.
        let result = try BuiltExecutable.run(["sample", "open", "v1", "--dir", folder.url.path, "--fresh"])
        #expect(result.exitCode == 2, "\(result.standardError)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "keep me")
        #expect(FileManager.default.fileExists(atPath: myFolder.path))
        #expect(!FileManager.default.fileExists(atPath: store.path + ".v1-backup"))
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: UnCloudNotesModel.load().versions[0]))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }
}
