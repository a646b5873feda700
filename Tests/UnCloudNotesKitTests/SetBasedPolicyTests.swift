import Foundation
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("The app's mappings as SQL: the v3 -> v4 policy's functions, rows written once")
struct SetBasedPolicyTests {
    let mappings = try! UnCloudNotesModel.loadMappingModels(for: AppStores.model)

    /// Images of every kind a v3 store may hold: accepted formats, a bomb, a truncated JPEG,
    /// bytes that are no image, and no image at all.
    static let images: [Data] = [
        AppStores.png, AppStores.jpeg, TestImages.gif(width: 300, height: 2),
        TestImages.pngBomb(width: 30000, height: 30000),
        Data(TestImages.encoded(width: 640, height: 480, format: "jpeg").prefix(200)),
        Data("not an image".utf8), Data(),
    ]

    private func v3Store(in folder: TemporaryFolder) throws -> URL {
        var notes = AppStores.notes
        notes.append(AppStores.NoteSpec(title: "Kinds", body: "Ünïcode 👨‍👩‍👧 " + String(repeating: "x", count: 90), date: 5000,
                                        images: Self.images))
        return try AppStores.make(version: 3, notes: notes, in: folder)
    }

    private func migrate(_ url: URL, mapping: MappingModel, policies: MigrationPolicyRegistry, into folder: TemporaryFolder) throws -> [String] {
        let destination = folder.url.appendingPathComponent("v4.sqlite")
        try MigrationManager.migrateStore(from: url, sourceModel: AppStores.version(3), to: destination,
                                          destinationModel: AppStores.version(4), mappingModel: mapping, policies: policies)
        return try StoreDump.contents(of: PersistentStore.open(at: destination, model: AppStores.version(4)))
    }

    private var mapping: MappingModel {
        get throws { try #require(MappingModel.find(in: mappings, from: AppStores.version(3), to: AppStores.version(4))) }
    }

    @Test("the set-based path and the per-object paths give the same store, every value read with SQL")
    func setBasedEqualsPerObject() throws {
        let folder = try TemporaryFolder()
        let url = try v3Store(in: folder)
        let setBased = try migrate(url, mapping: mapping, policies: UnCloudNotesModel.migrationPolicies, into: TemporaryFolder())

        var oldPolicy = MigrationPolicyRegistry()
        oldPolicy.register(ObjectByObjectV3toV4Policy.self, as: AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        let objectByObject = try migrate(url, mapping: mapping, policies: oldPolicy, into: TemporaryFolder())
        #expect(setBased == objectByObject, "\(Set(setBased).symmetricDifference(objectByObject).sorted().map { String($0.prefix(300)) })")

        // The app's policy itself, made to run object by object by an expression SQL cannot express.
        var perObjectMapping = try mapping
        let index = try #require(perObjectMapping.entityMappings.firstIndex { $0.policyClassName != nil })
        let date = try #require(perObjectMapping.entityMappings[index].attributeMappings.firstIndex { $0.name == "dateCreated" })
        perObjectMapping.entityMappings[index].attributeMappings[date].valueExpression =
            .keyPath(base: .keyPath(base: .variable("source"), components: []), components: ["dateCreated"])
        let fallback = try migrate(url, mapping: perObjectMapping, policies: UnCloudNotesModel.migrationPolicies, into: TemporaryFolder())
        #expect(setBased == fallback, "\(Set(setBased).symmetricDifference(fallback).sorted().map { String($0.prefix(300)) })")
        #expect(setBased.contains { $0.contains("ZWIDTH:300.0") && $0.contains("ZHEIGHT:2.0") })
    }

    @Test("a set-based policy's mapping runs as SQL: no object is created one by one")
    func setBasedRunsNoObjectLifecycle() throws {
        let folder = try TemporaryFolder()
        let url = try v3Store(in: folder)
        var counting = MigrationPolicyRegistry()
        counting.register(CountingSetBasedPolicy.self, as: AttachmentToImageAttachmentMigrationPolicyV3toV4.className)
        let store = try migrate(url, mapping: mapping, policies: counting, into: TemporaryFolder())
        #expect(CountingSetBasedPolicy.perObjectCalls.value == 0)
        #expect(store.contains { $0.contains("ZWIDTH:300.0") && $0.contains("ZHEIGHT:2.0") })
    }

    @Test("v2 -> v3 and v3 -> v4 write each row once: foreign keys are set when rows are inserted, never by an UPDATE", arguments: [2, 3])
    func rowsWrittenOnce(from version: Int) throws {
        let folder = try TemporaryFolder()
        let url = try version == 3 ? v3Store(in: folder) : AppStores.make(version: 2, in: folder)
        let statements = LogCollector()
        let destination = folder.url.appendingPathComponent("next.sqlite")
        let mapping = try #require(MappingModel.find(in: mappings, from: AppStores.version(version), to: AppStores.version(version + 1)))
        try MigrationManager.migrateStore(from: url, sourceModel: AppStores.version(version), to: destination,
                                          destinationModel: AppStores.version(version + 1), mappingModel: mapping,
                                          policies: UnCloudNotesModel.migrationPolicies, options: StoreOptions(sqlLogger: statements.logger))
        let updates = statements.messages.filter { $0.range(of: "^sql:\\s*UPDATE\\s+(main\\.)?\"?Z(?!_PRIMARYKEY)", options: .regularExpression) != nil }
        #expect(updates.isEmpty, "\(updates)")
        #expect(statements.messages.contains { $0.hasPrefix("sql: UPDATE Z_PRIMARYKEY") }, "the statements are logged as the filter expects")
        #expect(statements.messages.contains { $0.contains(#"INSERT INTO main."ZATTACHMENT""#) && $0.contains("LEFT JOIN temp.MS_LINK") })
        let attachments = try PersistentStore.open(at: destination, model: AppStores.version(version + 1)).database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZATTACHMENT a JOIN ZNOTE n ON n.Z_PK = a.ZNOTE")
        }
        #expect(attachments == (version == 2 ? 3 : 4 + Self.images.count))
    }

    @Test("v2 -> v3 numbers the notes with an image by the image's type alone (IS NOT NULL, no bound NULL that reads every image), densely from 1")
    func imageFilterReadsNoImage() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 2, in: folder)
        let statements = LogCollector()
        let destination = folder.url.appendingPathComponent("v3.sqlite")
        let mapping = try #require(MappingModel.find(in: mappings, from: AppStores.version(2), to: AppStores.version(3)))
        try MigrationManager.migrateStore(from: url, sourceModel: AppStores.version(2), to: destination,
                                          destinationModel: AppStores.version(3), mappingModel: mapping,
                                          policies: UnCloudNotesModel.migrationPolicies, options: StoreOptions(sqlLogger: statements.logger))
        let numbering = statements.messages.filter { $0.contains("INSERT INTO temp.MS_ASSOCIATION") }
        #expect(!numbering.isEmpty && numbering.allSatisfy { $0.contains(#"s."ZIMAGE" IS NOT NULL"#) }, "\(numbering)")
        let keys = try PersistentStore.open(at: destination, model: AppStores.version(3)).database.read { db in
            try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZATTACHMENT ORDER BY Z_PK")
        }
        #expect(keys == Array(1...Int64(keys.count)) && !keys.isEmpty, "\(keys)")
    }

    @Test("validation reads each table of the new store once, and none whose values were all copied unchanged or promised")
    func validationScansEachTableOnce() throws {
        let folder = try TemporaryFolder()
        let url = try v3Store(in: folder)
        let statements = LogCollector()
        let validationStart = LockedCounter()
        try MigrationManager.migrateStore(from: url, sourceModel: AppStores.version(3), to: folder.url.appendingPathComponent("v4.sqlite"),
                                          destinationModel: AppStores.version(4), mappingModel: mapping,
                                          policies: UnCloudNotesModel.migrationPolicies, options: StoreOptions(sqlLogger: statements.logger),
                                          progress: { if $0.stage == .validating, validationStart.value == 0 { validationStart.set(statements.messages.count) } })
        let reads = statements.messages.dropFirst(validationStart.value)
            .filter { $0.hasPrefix("sql: SELECT") && !$0.contains("sqlite_master") }
        // ZATTACHMENT, for its links to notes: its sizes and captions are the values the policy's
        // functions promise, and ZNOTE's are copied from source columns of the same types and
        // constraints: nothing there to find.
        #expect(reads.count == 1, "\(reads)")
        #expect(reads.allSatisfy { $0.contains(#"FROM "ZATTACHMENT""#) }, "\(reads)")
        #expect(!reads.contains { $0.contains("ZCAPTION") || $0.contains("ZWIDTH") }, "\(reads)")
    }

    @Test("progress counts the attachments v2 -> v3 makes from their numbering, not another scan of the notes; it only grows and ends at 1")
    func progressFromNumbering() throws {
        let folder = try TemporaryFolder()
        let url = try AppStores.make(version: 2, in: folder)
        let statements = LogCollector()
        var seen: [Double] = []
        let mapping = try #require(MappingModel.find(in: mappings, from: AppStores.version(2), to: AppStores.version(3)))
        try MigrationManager.migrateStore(from: url, sourceModel: AppStores.version(2), to: folder.url.appendingPathComponent("v3.sqlite"),
                                          destinationModel: AppStores.version(3), mappingModel: mapping,
                                          policies: UnCloudNotesModel.migrationPolicies, options: StoreOptions(sqlLogger: statements.logger),
                                          progress: { seen.append($0.fraction) })
        #expect(!statements.messages.contains { $0.contains("SELECT COUNT(*) FROM src.") },
                "\(statements.messages.filter { $0.contains("COUNT(*)") })")
        #expect(seen.last == 1 && zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "\(seen)")
        #expect(seen.contains { $0 > 0 && $0 < 1 }, "\(seen)")
    }

    @Test("the functions: sizes from headers (0 when unreadable), captions by grapheme cluster")
    func functions() {
        let policy = AttachmentToImageAttachmentMigrationPolicyV3toV4.self
        #expect(policy.imageWidth.body([.data(AppStores.png)]) == .double(30))
        #expect(policy.imageHeight.body([.data(AppStores.jpeg)]) == .double(64))
        #expect(policy.imageWidth.body([.data(Data("text".utf8))]) == .double(0))
        #expect(policy.imageHeight.body([nil]) == .double(0))
        #expect(policy.caption.body([.string(String(repeating: "👨‍👩‍👧", count: 81))]) == .string(String(repeating: "👨‍👩‍👧", count: 80)))
        #expect(policy.caption.body([nil]) == .string(""))
    }
}

/// The v3 -> v4 policy as it was before it had SQL functions: a plain policy that needs the
/// per-object lifecycle, setting the values on each object. It keeps that path tested.
final class ObjectByObjectV3toV4Policy: EntityMigrationPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        guard let attachment = try manager.destinationInstances(forEntityMappingNamed: mapping.name, sourceInstances: [source]).first
        else { throw NoAttachmentMade(source: "\(source.objectID)") }
        if case .data(let bytes)? = attachment.value(forKey: "image"), let size = try? NoteImage(storedData: bytes).pixelSize() {
            attachment.setValue(.double(Double(size.width)), forKey: "width")
            attachment.setValue(.double(Double(size.height)), forKey: "height")
        }
        let body: String = if case .string(let text)? = source.object(forKey: "note")?.value(forKey: "body") { text } else { "" }
        attachment.setValue(.string(String(body.prefix(80))), forKey: "caption")
    }
}

/// The app's set-based values, counting the per-object calls the manager makes (none, if set-based).
final class CountingSetBasedPolicy: EntityMigrationPolicy, SetBasedMigrationPolicy {
    static let perObjectCalls = LockedCounter()

    func computedValues(for mapping: EntityMapping) throws -> [String: ComputedValue] {
        try AttachmentToImageAttachmentMigrationPolicyV3toV4().computedValues(for: mapping)
    }

    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        Self.perObjectCalls.increment()
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    func set(_ value: Int) { lock.withLock { count = value } }
    var value: Int { lock.withLock { count } }
}

/// `ObjectByObjectV3toV4Policy`'s refusal when its own entity mapping made no attachment, which
/// only a broken engine would do.
struct NoAttachmentMade: Error, CustomStringConvertible {
    let source: String
    var description: String { "no attachment was made from \(source)" }
}
