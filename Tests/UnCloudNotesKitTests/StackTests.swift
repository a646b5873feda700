import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// A note as every version can describe it, for comparing a store before and after migrating.
struct NoteRecord: Equatable, CustomStringConvertible {
    var title: String
    var body: String
    var date: Double
    var displayIndex: Int64
    /// Image bytes, oldest attachment first (v2: the note's image).
    var images: [Data]
    var captions: [String]
    var sizes: [String]

    var description: String { "\(title): \(images.count) image(s) \(captions) \(sizes)" }

    /// The notes of a store, read untyped at the version that wrote it.
    static func read(_ url: URL, version: ManagedObjectModel) throws -> [NoteRecord] {
        let store = try PersistentStore.open(at: url, model: version, options: StoreOptions(isReadOnly: true))
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        return try context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [SortDescriptor("displayIndex")])).map { note in
            func string(_ object: ManagedObject, _ key: String) -> String {
                if case .string(let text)? = object.value(forKey: key) { return text }
                return ""
            }
            var attachments: [ManagedObject] = []
            if version.entity(named: "Attachment") != nil {
                attachments = note.objects(forKey: "attachments").sorted {
                    ($0.value(forKey: "dateCreated")?.displayText ?? "") < ($1.value(forKey: "dateCreated")?.displayText ?? "")
                }
            }
            var images = attachments.compactMap { if case .data(let bytes)? = $0.value(forKey: "image") { bytes } else { nil } }
            if case .data(let bytes)? = note.value(forKey: "image") { images = [bytes] }
            let captions = attachments.compactMap { if case .string(let text)? = $0.value(forKey: "caption") { text } else { nil } }
            let sizes = attachments.compactMap { attachment -> String? in
                guard case .double(let width)? = attachment.value(forKey: "width"), case .double(let height)? = attachment.value(forKey: "height") else { return nil }
                return "\(Int(width))x\(Int(height))"
            }
            let date: Double = if case .date(let value)? = note.value(forKey: "dateCreated") { value.timeIntervalSinceReferenceDate } else { -1 }
            let index: Int64 = if case .integer(let value)? = note.value(forKey: "displayIndex") { value } else { -1 }
            return NoteRecord(title: string(note, "title"), body: string(note, "body"), date: date, displayIndex: index,
                              images: images, captions: captions, sizes: sizes)
        }
    }

    /// What the note should look like at `version`, migrated from `self`.
    func expected(at version: Int) throws -> NoteRecord {
        var record = self
        switch version {
        case 1: record.images = []
        case 2: record.images = Array(images.prefix(1))
        case 3: break
        default:
            record.captions = images.map { _ in String(body.prefix(80)) }
            record.sizes = try images.map { data in
                let size = try NoteImage(storedData: data).pixelSize()
                return "\(size.width)x\(size.height)"
            }
        }
        return record
    }
}

@Suite("The self-migrating stack on the committed fixtures")
struct StackTests {
    @Test("every old fixture reaches every later version step by step, every note intact", arguments: [
        ("v1", 2), ("v1", 3), ("v1", 4), ("v2", 3), ("v2", 4), ("v3", 4),
    ])
    func migrates(fixture: String, to target: Int) throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore(fixture, into: folder)
        let original = try Data(contentsOf: url)
        let stack = try UnCloudNotesStack(storeURL: url, versionName: "v\(target)")
        let source = try #require(UnCloudNotesModel.version(named: fixture, in: stack.model))
        let before = try NoteRecord.read(url, version: source)
        #expect(!before.isEmpty)

        var events: [MigrationEvent] = []
        let plan = try #require(try stack.migrator.migrateIfNeeded { events.append($0) })
        let sourceNumber = Int(fixture.dropFirst())!
        #expect(plan.steps.count == target - sourceNumber)
        let finished = events.filter { if case .stepFinished = $0 { true } else { false } }
        #expect(finished.count == plan.steps.count)
        // Each step or composed pass is said to start once and to complete once.
        let console = MigrationConsole()
        let lines = events.flatMap { console.lines(for: $0, store: url) }
        let started = lines.filter { $0.hasPrefix("Migrating store ") }.count
        #expect(started >= 1 && lines.filter { $0 == "Migration Completed Successfully" }.count == started)

        let after = try NoteRecord.read(url, version: stack.version)
        #expect(after == (try before.map { try $0.expected(at: target) }))
        let backup = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite.\(fixture)-backup")
        #expect(try Data(contentsOf: backup) == original)
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: stack.version))
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        // The store's search index is built as the migration's last stage (issue #38).
        #expect(left == ["UnCloudNotesDataModel.sqlite", "UnCloudNotesDataModel.sqlite-search", "UnCloudNotesDataModel.sqlite.\(fixture)-backup",
                         "UnCloudNotesDataModel.sqlite.lock"])
    }

    @Test("the v1 fixture holds what the tests need: a dozen notes with CJK, emoji, an empty and a short body")
    func fixtureContents() throws {
        let folder = try TemporaryFolder()
        let stack = try UnCloudNotesStack(storeURL: try ProjectFixtures.copyStore("v1", into: folder), versionName: "v1")
        let notes = try NoteRecord.read(stack.storeURL, version: stack.version)
        #expect(notes.count == 12)
        #expect(notes.contains { $0.body.isEmpty })
        #expect(notes.contains { !$0.body.isEmpty && $0.body.count < 80 })
        #expect(notes.contains { $0.body.unicodeScalars.contains { $0.properties.isIdeographic } })
        #expect(notes.contains { $0.title.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
        let v3 = try NoteRecord.read(try ProjectFixtures.copyStore("v3", into: folder, as: "v3.sqlite"),
                                     version: UnCloudNotesModel.version(named: "v3", in: stack.model)!)
        #expect(v3.contains { $0.images.count == 3 } && v3.contains { $0.images.isEmpty })
    }

    @Test("opening creates a missing store at the pinned version")
    func createsMissing() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("deep/folder/UnCloudNotesDataModel.sqlite")
        let context = try UnCloudNotesStack(storeURL: url, versionName: "v2").open().context
        #expect(context.model.name == "UnCloudNotesDataModel v2")
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: context.model))
    }

    @Test("a store of a newer version is refused by an app pinned to an older one, unchanged")
    func refusesNewer() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v3", into: folder)
        let before = try Data(contentsOf: url)
        let error = try #require(throws: MigrationError.self) { _ = try UnCloudNotesStack(storeURL: url, versionName: "v2").open() }
        guard case .storeNewer(let store, let version, let target) = error else { Issue.record("not a newer store: \(error)"); return }
        #expect(store == url.path)
        #expect((version, target) == ("UnCloudNotesDataModel v3", "UnCloudNotesDataModel v2"))
        #expect(error.description.contains("the store was written by UnCloudNotesDataModel v3, newer than UnCloudNotesDataModel v2"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test("a store of no known version is refused and never changed")
    func refusesUnknown() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder, name: "UnCloudNotesDataModel.sqlite")
        try store.close()
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: MigrationError.self) { _ = try UnCloudNotesStack(storeURL: store.url).open() }
        guard case .unknownVersion(let path, let model) = error else { Issue.record("not an unknown version: \(error)"); return }
        #expect(path == store.url.path)
        #expect(model == "UnCloudNotesDataModel")
        #expect(error.description.contains("written by a newer version of the app?"))
        #expect(try Data(contentsOf: store.url) == before)
    }

    @Test("the plan is computed from the models and mapping models found")
    func planFromModels() throws {
        let stack = try UnCloudNotesStack(storeURL: URL(fileURLWithPath: "/nonexistent"))
        let plan = try MigrationPlanner.plan(from: stack.model.versions[0], to: stack.model.current, in: stack.model,
                                             mappingModels: stack.mappingModels)
        #expect(plan.steps.map(\.kindDescription) == [
            "in place", "mapping model UnCloudNotesMappingModel_v2_to_v3",
            "mapping model UnCloudNotesMappingModel_v3_to_v4, custom policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4",
            "mapping model UnCloudNotesMappingModel_v4_to_v5, custom policy UnCloudNotes.IdentifierMigrationPolicyV4toV5",
        ])
        let error = try #require(throws: MigrationError.self) {
            try MigrationPlanner.plan(from: stack.model.versions[1], to: stack.model.current, in: stack.model, mappingModels: [])
        }
        guard case .noMigrationPath(nil, "UnCloudNotesDataModel v2", "UnCloudNotesDataModel v3", .cannotInfer(let cause)) = error else {
            Issue.record("not a missing path from v2 to v3: \(error)"); return
        }
        #expect(cause.description.contains("cannot infer a mapping: attribute Note.image moved to new entity Attachment"))
    }

    @Test("no plan goes backwards, and a version name the model lacks is refused listing the versions")
    func planAndVersionRefusals() throws {
        let stack = try UnCloudNotesStack(storeURL: URL(fileURLWithPath: "/nonexistent"))
        let backwards = try #require(throws: MigrationError.self) {
            try MigrationPlanner.plan(from: stack.model.current, to: stack.model.versions[0], in: stack.model, mappingModels: stack.mappingModels)
        }
        guard case .noMigrationPath(nil, _, _, .backwards) = backwards else { Issue.record("not a backwards plan: \(backwards)"); return }
        let unknown = try #require(throws: MigrationError.self) { _ = try UnCloudNotesStack(storeURL: URL(fileURLWithPath: "/nonexistent"), versionName: "v9") }
        guard case .unknownVersionName("v9", _, let versions) = unknown else { Issue.record("not an unknown version name: \(unknown)"); return }
        #expect(versions == stack.model.versions.map(\.name))
    }

    @Test("a store no plan reaches is refused naming the store and the inference's reason, unchanged")
    func refusesStoreWithoutPath() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v2", into: folder)
        let before = try Data(contentsOf: url)
        let stack = try UnCloudNotesStack(storeURL: url)
        let migrator = StoreMigrator(storeURL: url, model: stack.model, mappingModels: [])
        let error = try #require(throws: MigrationError.self) { try migrator.migrateIfNeeded() }
        guard case .noMigrationPath(let store, _, _, .cannotInfer) = error else { Issue.record("not a missing path: \(error)"); return }
        #expect(store == url.path)
        #expect(error.description.hasSuffix("; the store was not changed"))
        #expect(try Data(contentsOf: url) == before)
    }
}
