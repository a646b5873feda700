import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("Migrating the app's stores step by step")
struct MigrationTests {
    let model = AppStores.model
    let mappings = try! UnCloudNotesModel.loadMappingModels(for: AppStores.model)

    private func migrate(_ url: URL, from: Int, to: Int, in folder: TemporaryFolder, mappingModels: [MappingModel]? = nil,
                         policies: MigrationPolicyRegistry = UnCloudNotesModel.migrationPolicies,
                         progress: ((MigrationProgress) -> Void)? = nil, cancellation: MigrationCancellation? = nil) throws -> URL {
        let destination = folder.url.appendingPathComponent("migrated-\(to).sqlite")
        let mapping = try #require(MappingModel.find(in: mappingModels ?? mappings, from: AppStores.version(from), to: AppStores.version(to)))
        try MigrationManager.migrateStore(from: url, sourceModel: AppStores.version(from), to: destination,
                                          destinationModel: AppStores.version(to), mappingModel: mapping, policies: policies,
                                          progress: progress, cancellation: cancellation)
        return destination
    }

    private func context(_ url: URL, version: Int) throws -> ManagedObjectContext {
        ManagedObjectContext(store: try PersistentStore.open(at: url, model: AppStores.version(version)), valueTransformers: UnCloudNotesModel.valueTransformers)
    }

    private func notes(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [SortDescriptor("dateCreated")]))
    }

    @Test("v1 -> v2 is inferred and done in place")
    func v1ToV2() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 1, in: folder)
        let inferred = try MappingInference.infer(from: AppStores.version(1), to: AppStores.version(2))
        #expect(inferred.changes == ["added optional attribute Note.image"])
        #expect(try InPlaceMigration.migrate(storeAt: url, from: AppStores.version(1), to: AppStores.version(2), inferred: inferred))
        let migrated = try notes(try context(url, version: 2))
        #expect(migrated.map { $0.value(forKey: "title") } == AppStores.notes.map { .string($0.title) })
        #expect(migrated.map { $0.value(forKey: "body") } == AppStores.notes.map { .string($0.body) })
        #expect(migrated.allSatisfy { $0.value(forKey: "image") == nil })
    }

    @Test("v2 -> v3 and v3 -> v4 cannot be inferred: the images would be lost", arguments: [
        (2, "attribute Note.image moved to new entity Attachment"),
        (3, "attribute Attachment.image moved to new entity ImageAttachment"),
    ])
    func notInferable(from: Int, reason: String) throws {
        let error = try #require(throws: InferenceError.self) {
            try MappingInference.infer(from: AppStores.version(from), to: AppStores.version(from + 1))
        }
        #expect(error.description == "cannot infer a mapping: \(reason); a mapping model is needed")
    }

    @Test("the v3 -> v4 policy refuses an entity mapping without attribute mappings")
    func policyNeedsAttributeMappings() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 3, in: folder)
        var mapping = try #require(MappingModel.find(in: mappings, from: AppStores.version(3), to: AppStores.version(4)))
        mapping.entityMappings[1].attributeMappings = []
        let error = try #require(throws: MigrationError.self) { _ = try migrate(url, from: 3, to: 4, in: folder, mappingModels: [mapping]) }
        guard case .mapping(.noAttributeMappings(let name, let neededTo)) = error else {
            Issue.record("not a mapping without attribute mappings: \(error)"); return
        }
        #expect(name == "AttachmentToImageAttachment")
        #expect(neededTo == "copy the attachment")
    }

    @Test("v2 -> v3: only notes with an image get one Attachment, linked to the right note")
    func v2ToV3() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 2, in: folder)
        let destination = try migrate(url, from: 2, to: 3, in: folder)
        let context = try context(destination, version: 3)
        let migrated = try notes(context)
        #expect(migrated.map { $0.value(forKey: "title") } == AppStores.notes.map { .string($0.title) })
        #expect(migrated.map { $0.value(forKey: "displayIndex") } == (0..<4).map { .integer(Int64($0)) })
        for (note, spec) in zip(migrated, AppStores.notes) {
            let attachments = note.objects(forKey: "attachments")
            #expect(attachments.count == (spec.images.isEmpty ? 0 : 1), "\(spec.title)")
            if let attachment = attachments.first {
                #expect(attachment.value(forKey: "image") == .data(spec.images[0]))
                #expect(attachment.value(forKey: "dateCreated") == note.value(forKey: "dateCreated"))
            }
        }
        #expect(try context.count(FetchRequest(entityName: "Attachment")) == 3)
    }

    @Test("v3 -> v4: every Attachment becomes an ImageAttachment with size, caption and bytes")
    func v3ToV4() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 3, in: folder)
        let destination = try migrate(url, from: 3, to: 4, in: folder)
        let context = try context(destination, version: 4)
        #expect(try context.count(FetchRequest(entityName: "Attachment", includesSubentities: false)) == 0)
        #expect(try context.count(FetchRequest(entityName: "ImageAttachment")) == 4)
        let book = NoteBook(context: context, version: "v4")
        let migrated = try book.noteIDs().reversed().map { try book.snapshot(of: $0) }
        #expect(migrated.map(\.title) == AppStores.notes.map(\.title))
        for (note, spec) in zip(migrated, AppStores.notes) {
            #expect(note.attachments.map(\.imageData) == spec.images.map { $0 }, "\(spec.title)")
            for (attachment, data) in zip(note.attachments, spec.images) {
                let size = try NoteImage(storedData: data).pixelSize()
                #expect(attachment.width == Double(size.width) && attachment.height == Double(size.height))
                #expect(attachment.caption == String(spec.body.prefix(80)))
            }
        }
        let long = try #require(migrated.first { $0.title == "Long" })
        let caption = try #require(long.attachments.first?.caption)
        #expect(caption.count == 80 && caption.hasSuffix("é🙂"))
        #expect(migrated.first { $0.title == "Empty" }?.latestAttachment?.imageData == AppStores.png)
    }

    @Test("v3 -> v4 reads sizes from headers alone: a stored 30000x30000 bomb is sized, not decoded, and kept")
    func v3ToV4SizesFromHeaders() throws {
        let folder = try TemporaryFolder()
        let bomb = TestImages.pngBomb(width: 30000, height: 30000)
        let truncated = TestImages.encoded(width: 640, height: 480, format: "jpeg").prefix(200)
        let url = try AppStores.make(version: 3, notes: [AppStores.NoteSpec(title: "Bombs", body: "b", date: 1, images: [bomb, Data(truncated)])], in: folder)
        let destination = try migrate(url, from: 3, to: 4, in: folder)
        let rows = try context(destination, version: 4).store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT ZWIDTH, ZHEIGHT, ZIMAGE FROM ZATTACHMENT ORDER BY ZDATECREATED")
        }
        #expect(rows.map { [$0[0] as Double, $0[1] as Double] } == [[30000, 30000], [640, 480]])
        #expect(rows.map { $0[2] as Data } == [bomb, Data(truncated)])
    }

    @Test("the mapping models Xcode wrote give identical stores", SharedFixtures.required)
    func xcodeMappingModelsGiveIdenticalStores() throws {
        let xcode = try MappingModelReader.readAll(in: SharedFixtures.url("xcode-uncloudnotes"), models: model)
        for (from, to) in [(2, 3), (3, 4)] {
            let folder = try TemporaryFolder()
            let url = try AppStores.make(version: from, in: folder)
            let ours = try migrate(url, from: from, to: to, in: folder)
            let otherFolder = try TemporaryFolder()
            let theirs = try migrate(url, from: from, to: to, in: otherFolder, mappingModels: xcode)
            let a = try StoreDump.contents(of: PersistentStore.open(at: ours, model: AppStores.version(to)))
            let b = try StoreDump.contents(of: PersistentStore.open(at: theirs, model: AppStores.version(to)))
            #expect(a == b, "\(Set(a).symmetricDifference(b).sorted().map { String($0.prefix(300)) })")
        }
    }

    @Test("a policy that fails halfway leaves the source byte for byte as it was, and no new file")
    func failingPolicy() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 3, in: folder)
        let before = try Data(contentsOf: url)
        var policies = MigrationPolicyRegistry()
        policies.register(FailingPolicy.self, as: AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        let error = try #require(throws: MigrationError.self) { _ = try migrate(url, from: 3, to: 4, in: folder, policies: policies) }
        guard case .failed(let from, let to, let cause) = error else { Issue.record("not a failed migration: \(error)"); return }
        #expect((from, to) == ("UnCloudNotesDataModel v3", "UnCloudNotesDataModel v4"))
        #expect(cause as? SimulatedDiskFull != nil, "\(cause)")
        #expect(error.description.contains("the disk is full (simulated)"))
        #expect(try Data(contentsOf: url) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(left == ["UnCloudNotesDataModel.sqlite"], "\(left)")
    }

    @Test("a mapping model naming an unknown policy is refused before any work")
    func unknownPolicy() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 3, in: folder)
        let error = try #require(throws: MigrationError.self) {
            _ = try migrate(url, from: 3, to: 4, in: folder, policies: MigrationPolicyRegistry())
        }
        guard case .unknownPolicy(let mapping, let className, let known) = error else { Issue.record("not an unknown policy: \(error)"); return }
        #expect(mapping == "AttachmentToImageAttachment")
        #expect(className == AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        #expect(known.isEmpty)
        #expect(error.description == "entity mapping AttachmentToImageAttachment names the migration policy UnCloudNotes.AttachmentToImageAttachmentMigrationPolicyV3toV4, which this program does not know (known policies: none)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["UnCloudNotesDataModel.sqlite"])
    }

    @Test("progress rises to 1 through every entity mapping; cancelling stops and cleans up")
    func progressAndCancellation() throws {
        let folder = try TemporaryFolder()
        let many = (0..<5000).map { AppStores.NoteSpec(title: "n\($0)", body: "b", date: Double($0), images: $0 % 10 == 0 ? [AppStores.png] : []) }
        let url = try AppStores.make(version: 2, notes: many, in: folder)
        var reports: [MigrationProgress] = []
        _ = try migrate(url, from: 2, to: 3, in: folder) { reports.append($0) }
        #expect(reports.last?.fraction == 1)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
        #expect(Set(reports.compactMap(\.entityMappingName)) == ["NoteToAttachment", "NoteToNote"])
        #expect(reports.count > 4)

        let cancellation = MigrationCancellation()
        let otherFolder = try TemporaryFolder()
        let error = try #require(throws: MigrationError.self) {
            _ = try migrate(url, from: 2, to: 3, in: otherFolder, progress: { if $0.fraction > 0.2 { cancellation.cancel() } },
                            cancellation: cancellation)
        }
        guard case .cancelled = error else { Issue.record("not cancelled: \(error)"); return }
        #expect(try FileManager.default.contentsOfDirectory(atPath: otherFolder.url.path).isEmpty)
    }
}

/// The error `FailingPolicy` throws, as a policy's own refusal.
struct SimulatedDiskFull: Error, CustomStringConvertible {
    var description: String { "the disk is full (simulated)" }
}

/// Copies some attachments, then fails, as a policy meeting a full disk would.
final class FailingPolicy: EntityMigrationPolicy {
    private var calls = 0

    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        calls += 1
        if calls == 3 { throw SimulatedDiskFull() }
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
}
