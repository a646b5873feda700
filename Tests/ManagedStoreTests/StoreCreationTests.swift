import Foundation
import ManagedStore
import Testing
import TestSupport

/// `openOrCreate` builds a new store under a temporary name and links it into place. A process
/// killed while building it used to leave that draft beside the store forever; now the draft's
/// names are recorded in the store's lock file first, and the next creator removes exactly those.
@Suite("Creating a store")
struct StoreCreationTests {
    @Test("a draft left by a creation that was killed is removed on the next open; a user's look-alike files are not")
    func leftoverDraftRemoved() throws {
        let folder = try TemporaryFolder()
        let model = try LibraryModel.load()
        let url = folder.url.appendingPathComponent("notes.sqlite")
        // What a creator killed mid-way leaves: its lock file naming the draft, and the draft.
        let draft = "notes.sqlite.new-\(UUID().uuidString)"
        try PersistentStore.create(at: folder.url.appendingPathComponent(draft), model: model).close()
        try Data("\(draft)\n\(draft)-wal\n\(draft)-shm\n".utf8).write(to: folder.url.appendingPathComponent("notes.sqlite.lock"))
        let userFiles = ["notes.sqlite.new-\(UUID().uuidString)", "notes.sqlite.new-mine", "\(draft).txt"]
        for name in userFiles { try Data("the user's \(name)".utf8).write(to: folder.url.appendingPathComponent(name)) }

        let store = try PersistentStore.openOrCreate(at: url, model: model)
        try store.close()

        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        #expect(left == Set(["notes.sqlite", "notes.sqlite.lock"] + userFiles), "\(left)")
        for name in userFiles {
            #expect(try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8) == "the user's \(name)")
        }
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("notes.sqlite.lock")).isEmpty)
    }

    @Test("creating a store records nothing once done: the lock file is empty and private, no draft is left")
    func creationLeavesNoRecord() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("notes.sqlite")
        try PersistentStore.openOrCreate(at: url, model: try LibraryModel.load()).close()
        let lock = folder.url.appendingPathComponent("notes.sqlite.lock")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)) == ["notes.sqlite", "notes.sqlite.lock"])
        #expect(try Data(contentsOf: lock).isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: lock.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }
}
