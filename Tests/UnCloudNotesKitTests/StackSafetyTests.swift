import Foundation
@testable import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// A refused, failed or interrupted migration leaves the store's files as they were; the backup
/// is real and fresh; only the program's own files are ever removed; modes and owners are kept.
@Suite("The stack keeps stores safe")
struct StackSafetyTests {
    private static let storeName = "UnCloudNotesDataModel.sqlite"

    private func folderContents(_ folder: TemporaryFolder) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("a chain failing after its last step (all four run as one pass) leaves the store byte for byte, and no new file but the lock")
    func failedChainLeavesStore() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v1", into: folder)
        let before = try Data(contentsOf: url)
        var steps = 0
        let cancellation = MigrationCancellation()
        let error = try #require(throws: MigrationError.self) {
            try UnCloudNotesStack(storeURL: url).migrator.migrateIfNeeded(observer: { event in
                guard case .stepFinished = event else { return }
                steps += 1
                if steps == 4 { cancellation.cancel() }
            }, cancellation: cancellation)
        }
        guard case .cancelled = error else { Issue.record("not cancelled: \(error)"); return }
        #expect(steps == 4, "the failure must come after every step finished, just before the store is replaced")
        #expect(try Data(contentsOf: url) == before)
        #expect(try folderContents(folder) == [Self.storeName, Self.storeName + ".lock"])
    }

    @Test("a refused migration (a custom policy the program lacks) writes nothing, not even a backup")
    func refusalWritesNothing() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v3", into: folder)
        let before = try Data(contentsOf: url)
        let stack = try UnCloudNotesStack(storeURL: url)
        let migrator = StoreMigrator(storeURL: url, model: stack.model, mappingModels: stack.mappingModels)
        let error = try #require(throws: MigrationError.self) { try migrator.migrateIfNeeded() }
        guard case .missingPolicies(let store, let names) = error else { Issue.record("not missing policies: \(error)"); return }
        #expect(store == url.path)
        #expect(names == [AttachmentToImageAttachmentMigrationPolicyV3toV4.className, IdentifierMigrationPolicyV4toV5.className])
        #expect(error.description.contains("refused"))
        #expect(try Data(contentsOf: url) == before)
        #expect(try folderContents(folder).isSubset(of: [Self.storeName, Self.storeName + ".lock"]))
    }

    @Test("a store with a -wal: the migration folds it, leaves no -wal or -shm, and the backup holds the -wal's notes")
    func walIsFoldedAway() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v2", into: folder)
        let stack = try UnCloudNotesStack(storeURL: url, versionName: "v2")
        let context = try stack.open().context
        let note = try context.insertObject(entityName: "Note")
        note.setValue(.string("only in the wal"), forKey: "title")
        note.setValue(.string(""), forKey: "body")
        note.setValue(.integer(99), forKey: "displayIndex")
        try context.save()
        // The app is killed: the note is in the -wal only.
        let snapshot = try TemporaryFolder()
        for file in StoreFiles(url: url).existing { _ = try snapshot.copy(file) }
        try context.store.close()
        try FileManager.default.removeItem(at: url)
        for file in try FileManager.default.contentsOfDirectory(atPath: snapshot.url.path) {
            try FileManager.default.copyItem(at: snapshot.url.appendingPathComponent(file), to: folder.url.appendingPathComponent(file))
        }
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))

        let migrator = try UnCloudNotesStack(storeURL: url).migrator
        try migrator.migrateIfNeeded()
        // The store's search index is built as the migration's last stage (issue #38).
        #expect(try folderContents(folder) == [Self.storeName, Self.storeName + "-search", Self.storeName + ".lock", Self.storeName + ".v2-backup"])
        let backupTitles = try NoteRecord.read(migrator.backupURL(for: stack.version), version: stack.version).map(\.title)
        #expect(backupTitles.contains("only in the wal"))
        #expect(try NoteRecord.read(url, version: migrator.target).map(\.title).contains("only in the wal"))
    }

    @Test("a symlinked store: the link stays a link, the real file is migrated, the backup is a real copy beside it")
    func symlinkedStore() throws {
        let folder = try TemporaryFolder()
        let realFolder = folder.url.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: realFolder, withIntermediateDirectories: true)
        let real = realFolder.appendingPathComponent(Self.storeName)
        try FileManager.default.copyItem(at: ProjectFixtures.copyStore("v1", into: folder, as: "source.sqlite"), to: real)
        let before = try Data(contentsOf: real)
        let link = folder.url.appendingPathComponent("alias.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let other = folder.url.appendingPathComponent("other-alias.sqlite")
        try FileManager.default.createSymbolicLink(at: other, withDestinationURL: link)

        let migrator = try UnCloudNotesStack(storeURL: link).migrator
        #expect(migrator.realStoreURL.path == real.path)
        #expect(try UnCloudNotesStack(storeURL: other).migrator.realStoreURL.path == real.path, "two aliases share one lock")
        try migrator.migrateIfNeeded()
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try StoreMetadata.read(storeAt: real).isCompatible(with: migrator.target))
        let backup = realFolder.appendingPathComponent(Self.storeName + ".v1-backup")
        #expect((try FileManager.default.attributesOfItem(atPath: backup.path)[.type] as? FileAttributeType) == .typeRegular)
        #expect(try Data(contentsOf: backup) == before)
        #expect(FileManager.default.fileExists(atPath: real.path + ".lock"))
        #expect(!FileManager.default.fileExists(atPath: link.path + ".lock"))
    }

    @Test("the backup is made fresh each time: after a restore and a new note, it holds the new note")
    func freshBackup() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v1", into: folder)
        let migrator = try UnCloudNotesStack(storeURL: url, versionName: "v2").migrator
        let v1 = migrator.model.versions[0]
        try migrator.migrateIfNeeded()
        let backup = migrator.backupURL(for: v1)
        // Restore the backup, write a new note at v1, migrate again.
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: backup, to: url)
        let store = try PersistentStore.open(at: url, model: v1, options: StoreOptions(journalMode: .delete))
        let context = ManagedObjectContext(store: store)
        let note = try context.insertObject(entityName: "Note")
        note.setValue(.string("written after the restore"), forKey: "title")
        note.setValue(.string(""), forKey: "body")
        note.setValue(.integer(500), forKey: "displayIndex")
        try context.save()
        try store.close()
        let restored = try Data(contentsOf: url)
        var announced: String?
        try migrator.migrateIfNeeded { if case .backupCreated(let path, _) = $0 { announced = path } }
        #expect(announced == backup.path)
        #expect(try Data(contentsOf: backup) == restored)
        #expect(try mode(backup) == 0o600)
    }

    @Test("garbage where the backup goes is replaced; a folder there refuses the migration before anything is written")
    func backupPathTaken() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v1", into: folder)
        let before = try Data(contentsOf: url)
        let migrator = try UnCloudNotesStack(storeURL: url).migrator
        let backup = migrator.backupURL(for: migrator.model.versions[0])
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let error = try #require(throws: MigrationError.self) { try migrator.migrateIfNeeded() }
        guard case .file(let path, .folderAtBackup) = error else { Issue.record("not a folder at the backup: \(error)"); return }
        #expect(path == backup.path)
        #expect(try Data(contentsOf: url) == before)
        #expect(try folderContents(folder) == [Self.storeName, Self.storeName + ".lock", backup.lastPathComponent])

        try FileManager.default.removeItem(at: backup)
        try folder.write("garbage", to: backup.lastPathComponent)
        try migrator.migrateIfNeeded()
        #expect(try Data(contentsOf: backup) == before)
    }

    @Test("leftovers: only the files an interrupted run recorded are removed, never a user's look-alike file or folder")
    func onlyRecordedLeftoversRemoved() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v2", into: folder)
        let userFile = try folder.write("my notes", to: Self.storeName + ".migrating notes.txt")
        let userFolder = folder.url.appendingPathComponent(Self.storeName + ".migrating-old")
        try FileManager.default.createDirectory(at: userFolder, withIntermediateDirectories: true)
        try folder.write("keep", to: Self.storeName + ".migrating-old/inside.txt")
        do {
            // An interrupted run: it recorded its files, made some, and died holding the lock.
            let lock = try StoreLock(for: url)
            try lock.record([Self.storeName + ".migrating", Self.storeName + ".migrating-wal", Self.storeName + ".v2-backup.partial",
                             Self.storeName + ".migrating-old"])
            for name in [".migrating", ".migrating-wal", ".v2-backup.partial"] { try folder.write("half-written", to: Self.storeName + name) }
        }
        var cleaned: [String] = []
        let stack = try UnCloudNotesStack(storeURL: url)
        try stack.migrator.migrateIfNeeded { if case .cleanedLeftovers(let names) = $0 { cleaned = names } }
        #expect(cleaned == [Self.storeName + ".migrating", Self.storeName + ".migrating-wal", Self.storeName + ".v2-backup.partial"])
        #expect(FileManager.default.fileExists(atPath: userFile.path))
        #expect(FileManager.default.fileExists(atPath: userFolder.appendingPathComponent("inside.txt").path))
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: stack.model.current))
    }

    @Test("a file of the user's with a working file's exact name refuses the migration and stays", arguments: [".migrating", ".v1-backup.partial"])
    func userFileInTheWay(suffix: String) throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v1", into: folder)
        let before = try Data(contentsOf: url)
        let mine = try folder.write("mine", to: Self.storeName + suffix)
        let error = try #require(throws: MigrationError.self) { try UnCloudNotesStack(storeURL: url).migrator.migrateIfNeeded() }
        guard case .file(let path, .inTheWay) = error else { Issue.record("not a file in the way: \(error)"); return }
        #expect(path == mine.path)
        #expect(try String(contentsOf: mine, encoding: .utf8) == "mine")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("every migration kind keeps the store's mode and owner; lock and backup are 0600 and the owner's",
          arguments: [("v1", "v2"), ("v2", "v3"), ("v3", "v4")])
    func modeAndOwnerKept(from: String, to: String) throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore(from, into: folder)
        #expect(chmod(url.path, 0o640) == 0)
        let runsAsRoot = geteuid() == 0
        if runsAsRoot { #expect(chown(url.path, 4321, 4321) == 0) }
        let migrator = try UnCloudNotesStack(storeURL: url, versionName: to).migrator
        try migrator.migrateIfNeeded()
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: migrator.target))
        #expect(try mode(url) == 0o640)
        let backup = migrator.backupURL(for: try UnCloudNotesModel.resolveVersion(named: from, in: migrator.model))
        let lock = URL(fileURLWithPath: url.path + ".lock")
        #expect(try mode(backup) == 0o600)
        #expect(try mode(lock) == 0o600)
        if runsAsRoot {
            for file in [url, backup, lock] {
                let owner = try FileManager.default.attributesOfItem(atPath: file.path)[.ownerAccountID] as? NSNumber
                #expect(owner?.intValue == 4321, "\(file.lastPathComponent)")
            }
        }
    }

    @Test("a new store's folders are created 0700")
    func privateFolders() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("data/uncloudnotes/" + Self.storeName)
        _ = try UnCloudNotesStack(storeURL: url).open()
        #expect(try mode(folder.url.appendingPathComponent("data")) == 0o700)
        #expect(try mode(url.deletingLastPathComponent()) == 0o700)
    }

    @Test("a folder given as the store is named as such, not as a disk I/O error")
    func folderAsStore() throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: StoreError.self) { try UnCloudNotesStack(storeURL: folder.url).migrator.state() }
        #expect(error.problem == .isFolder)
        #expect(error.path == folder.url.path)
    }

    @Test("a failed folder sync fails the operation instead of passing silently")
    func folderSyncFailureIsAnError() throws {
        let folder = try TemporaryFolder()
        let source = try folder.write("a", to: "a")
        let missing = folder.url.appendingPathComponent("gone/b")
        for failing in [{ try DurableFiles.syncFolder(missing.deletingLastPathComponent()) }, { try DurableFiles.rename(source, to: missing) }] {
            let error = try #require(throws: MigrationError.self) { try failing() }
            guard case .fileSystem(_, let code) = error else { Issue.record("not a system call failure: \(error)"); continue }
            #expect(code == ENOENT)
        }
    }

    @Test("errors read as one line: SQL's newlines folded, Foundation's errors without their domain and code")
    func oneLineErrorText() {
        #expect(ErrorText.oneLine(FailureCause.other("near \"x\": syntax error\n  SELECT *\n  FROM t")) == "near \"x\": syntax error SELECT * FROM t")
        let exists = CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: "/tmp/x"])
        #expect(!ErrorText.oneLine(exists).contains("NSCocoaErrorDomain"))
        #expect(!ErrorText.oneLine(exists).contains("\n"))
    }
}
