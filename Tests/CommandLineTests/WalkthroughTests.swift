import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("uncloudnotes walkthrough and sample")
struct WalkthroughTests {
    @Test("the walkthrough replays the chapter and keeps its stores: the old ones at v4, its own at v5 after the last step")
    func fullWalkthrough() throws {
        let folder = try TemporaryFolder()
        let result = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path])
        #expect(result.exitCode == 0, "\(result.standardError)")
        let output = result.standardOutput
        for expected in ["━━ Step 1", "CREATE TABLE ZNOTE", "Inferred mapping (in place): added optional attribute Note.image",
                         "What changes (uncloudnotes model diff v3 v4):",
                         "! attribute Attachment.image moved to new entity ImageAttachment: needs a mapping model",
                         "NoteToAttachment: Note → Attachment, filter image != nil",
                         "note = FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"NoteToNote\", $source)",
                         "policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4", "ImageAttachment (2 rows)",
                         "━━ Step 5", "A v1 store, skipping-from-v1.sqlite, opened by the v4 app:",
                         "Migration Completed Successfully", "The stores are kept in \(folder.url.path)",
                         "━━ Step 6: v5: after the chapter", "What changes (uncloudnotes model diff v4 v5):",
                         "policy UnCloudNotes.IdentifierMigrationPolicyV4toV5", "dateModified = $source.dateCreated", "Contents at v5"] {
            #expect(output.contains(expected), "missing: \(expected)")
        }
        // Each migration names the store it migrates: the walkthrough's own in steps 2 to 4,
        // then each old store of step 5 (which named the walkthrough's own store before), whose
        // steps run as one pass, said once.
        let migrating = output.split(separator: "\n").filter { $0.hasPrefix("Migrating store ") }
        let named = { (file: String) in migrating.filter { $0.hasPrefix("Migrating store \(folder.url.appendingPathComponent(file).path) from ") }.count }
        #expect(named("UnCloudNotesDataModel.sqlite") == 4, "\(migrating)")
        #expect(named("skipping-from-v1.sqlite") == 1 && named("skipping-from-v2.sqlite") == 1, "\(migrating)")
        #expect(migrating.count == 6)
        let model = try UnCloudNotesModel.load()
        for name in ["skipping-from-v1.sqlite", "skipping-from-v2.sqlite"] {
            #expect(try StoreMetadata.read(storeAt: folder.url.appendingPathComponent(name)).isCompatible(with: model.versions[3]), "\(name)")
        }
        let own = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
        #expect(try StoreMetadata.read(storeAt: own).isCompatible(with: model.current))
        // Step 6 kept every note, gave each an identifier and its creation date as modified date.
        let listed = try BuiltExecutable.run(["--store", own.path, "notes", "list", "--json"]).standardOutput.split(separator: "\n")
        #expect(listed.count == 3 && listed.allSatisfy { $0.contains("\"pinned\":false") && $0.contains("\"dateModified\":\"") })
    }

    @Test("--step stops early, leaving the store at that version and saying how to go on; --continue goes on from there")
    func stopEarlyAndGoOn() throws {
        let folder = try TemporaryFolder()
        let result = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path, "--step", "2"])
        #expect(result.exitCode == 0)
        #expect(!result.standardOutput.contains("━━ Step 3"))
        let model = try UnCloudNotesModel.load()
        let store = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: model.versions[1]))
        let again = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path])
        #expect(again.exitCode == 1 && again.standardError.contains("not empty") && again.standardError.contains("--continue"))

        // The output names the next command; running it as printed does step 3 alone.
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let told = try #require(lines.firstIndex { $0.hasPrefix("Stopped after step 2 of 6. To go on with step 3") })
        let next = lines[told + 1].trimmingCharacters(in: .whitespaces)
        #expect(next == "uncloudnotes walkthrough --dir \(folder.url.path) --continue --step 3")
        let third = try BuiltExecutable.run(Array(next.split(separator: " ").map(String.init).dropFirst()))
        #expect(third.exitCode == 0, "\(third.standardError)")
        #expect(third.standardOutput.contains("━━ Step 3") && !third.standardOutput.contains("━━ Step 2")
                && !third.standardOutput.contains("━━ Step 4"))
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: model.versions[2]))
        #expect(third.standardOutput.contains("uncloudnotes walkthrough --dir \(folder.url.path) --continue --step 4"))

        let done = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path, "--step", "3", "--continue"])
        #expect(done.exitCode == 1 && done.standardError.contains("step 3 is done already; the next one is step 4"))
        let rest = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path, "--continue"])
        #expect(rest.exitCode == 0 && rest.standardOutput.contains("━━ Step 4") && rest.standardOutput.contains("━━ Step 6"))
        #expect(!rest.standardOutput.contains("━━ Step 3") && !rest.standardOutput.contains("To go on"))
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: model.current))
        let finished = try BuiltExecutable.run(["walkthrough", "--dir", folder.url.path, "--continue"])
        #expect(finished.exitCode == 1 && finished.standardError.contains("has done all 6 steps"))
        let empty = try TemporaryFolder()
        let nothing = try BuiltExecutable.run(["walkthrough", "--dir", empty.url.path, "--continue"])
        #expect(nothing.exitCode == 1 && nothing.standardError.contains("no walkthrough to go on with"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.url.path).isEmpty)
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

extension WalkthroughTests {
    @Test("sample open v4: a store written by the v4 app upgrades to v5 on the migration screen, its captions kept")
    func sampleOpenV4() throws {
        let folder = try TemporaryFolder()
        let tmux = try TmuxSession(command: "'\(BuiltExecutable.url.path)' sample open v4 --dir '\(folder.url.path)'; sleep 60",
                                   environment: ["LANG": "C.UTF-8"])
        let screen = try tmux.waitFor("Your notes were upgraded")
        #expect(screen.contains("UnCloudNotesDataModel v4 → UnCloudNotesDataModel v5"), "\(screen)")
        try tmux.press("Enter")
        try tmux.waitFor("3 notes · v5")
        try tmux.press("q")
        let copy = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
        #expect(try StoreMetadata.read(storeAt: copy).isCompatible(with: UnCloudNotesModel.load().current))
        let shown = try BuiltExecutable.run(["--store", copy.path, "notes", "show", "1"])
        #expect(shown.standardOutput.contains("caption: Dots") && shown.standardOutput.contains("identifier: "), "\(shown.standardOutput)")
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
