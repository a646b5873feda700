import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

/// v5 (identifiers, pins, modified dates, tags): every older store reaches it through the app's
/// own mapping model and policy, keeping everything v4 keeps.
@Suite("Every older store reaches v5")
struct V5MigrationTests {
    /// Migrates the store to `version` through the app's stack; returns the composed passes it ran.
    @discardableResult
    private func migrate(_ url: URL, to version: String) throws -> [String] {
        var passes: [String] = []
        try UnCloudNotesStack(storeURL: url, versionName: version).migrator.migrateIfNeeded { event in
            if case .composedPass(let first, let last, _) = event { passes.append("\(first.source.name) -> \(last.destination.name)") }
        }
        return passes
    }

    /// A copy of a fixture (or of a store made earlier) under a new name in the folder.
    private func copy(_ source: URL, as name: String, in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        try FileManager.default.copyItem(at: source, to: url)
        return url
    }

    private func version(_ name: String) throws -> ManagedObjectModel {
        try #require(UnCloudNotesModel.version(named: name, in: UnCloudNotesModel.load()))
    }

    @Test("v1, v2 and v3 stores reach v5 with every title, body, date, image, caption and size as v4 has them",
          arguments: ["v1", "v2", "v3"])
    func everythingKept(fixture: String) throws {
        let folder = try TemporaryFolder()
        let atV4 = try copy(ProjectFixtures.folder.appendingPathComponent("\(fixture).sqlite"), as: "v4.sqlite", in: folder)
        try migrate(atV4, to: "v4")
        let atV5 = try copy(ProjectFixtures.folder.appendingPathComponent("\(fixture).sqlite"), as: "v5.sqlite", in: folder)
        let passes = try migrate(atV5, to: "v5")
        let expected = try NoteRecord.read(atV4, version: version("v4"))
        #expect(!expected.isEmpty)
        #expect(try NoteRecord.read(atV5, version: version("v5")) == expected)
        // Every step runs in one pass, composed into one mapping, as the chains to v4 do.
        let source = fixture == "v1" ? "UnCloudNotesDataModel" : "UnCloudNotesDataModel \(fixture)"
        #expect(passes == ["\(source) -> UnCloudNotesDataModel v5"])
    }

    @Test("a v4 store reaches v5: identifiers unique across notes and attachments, modified = created, nothing pinned, no tags")
    func v4ToV5() throws {
        let folder = try TemporaryFolder()
        let atV4 = try copy(ProjectFixtures.folder.appendingPathComponent("v3.sqlite"), as: "v4.sqlite", in: folder)
        try migrate(atV4, to: "v4")
        let before = try NoteRecord.read(atV4, version: version("v4"))
        let v4ToV5 = try copy(atV4, as: "v5.sqlite", in: folder)
        #expect(try migrate(v4ToV5, to: "v5").isEmpty)
        #expect(try NoteRecord.read(v4ToV5, version: version("v5")) == before)
        let queue = try DatabaseQueue(path: v4ToV5.path)
        defer { try? queue.close() }
        try queue.read { db in
            let identifiers = try Data.fetchAll(db, sql: "SELECT ZIDENTIFIER FROM ZNOTE UNION ALL SELECT ZIDENTIFIER FROM ZATTACHMENT")
            let rows = try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM ZNOTE) + (SELECT COUNT(*) FROM ZATTACHMENT)")
            #expect(identifiers.count == rows && Set(identifiers).count == identifiers.count)
            #expect(identifiers.allSatisfy { $0.count == 16 })
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE WHERE ZDATEMODIFIED IS NOT ZDATECREATED OR ZPINNED != 0") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZTAG") == 0)
        }
    }
}

extension V5MigrationTests {
    @Test("a v4 store holding a plain Attachment (which the v4 -> v5 mapping does not read) is refused by name, not migrated without it")
    func plainAttachmentRefused() throws {
        let folder = try TemporaryFolder()
        let url = try ProjectFixtures.copyStore("v3", into: folder)
        try UnCloudNotesStack(storeURL: url, versionName: "v4").migrator.migrateIfNeeded()
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO ZATTACHMENT (Z_PK, Z_ENT, Z_OPT, ZNOTE, ZDATECREATED) VALUES (100, 1, 1, 1, 7e8)")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 100 WHERE Z_ENT = 1")
        }
        try queue.close()
        let before = try Data(contentsOf: url)
        let error = try #require(throws: MigrationError.self) {
            try UnCloudNotesStack(storeURL: url, versionName: "v5").migrator.migrateIfNeeded()
        }
        guard case .mapping(.unmappedObjects(_, let entity, let count)) = error else { Issue.record("not unmapped objects: \(error)"); return }
        #expect(entity == "Attachment" && count == 1, "\(error)")
        #expect(try Data(contentsOf: url) == before)
    }
}

extension V5MigrationTests {
    @Test("the app run as v5 gives new notes and images identifiers, and a note's changes its modified date")
    func notesAtV5() throws {
        let folder = try TemporaryFolder()
        let book = try UnCloudNotesStack(storeURL: folder.url.appendingPathComponent("n.sqlite"), versionName: "v5").open()
        let png = try NoteImage(validating: try Data(contentsOf: try folder.writeImage(named: "a.png", width: 4, height: 4)))
        let created = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let id = try book.add(NoteDraft(title: "Five", body: "at v5"), images: [png], date: created)
        let note = try #require(try book.context.fetch(FetchRequest(entityName: "Note")).first)
        #expect(note.value(forKey: "dateModified") == .date(created))
        try book.update(id, with: NoteDraft(title: "Five", body: "changed"))
        guard case .date(let modified)? = note.value(forKey: "dateModified") else { Issue.record("no dateModified"); return }
        #expect(modified > created)
        let attachment = try #require(try book.context.fetch(FetchRequest(entityName: "ImageAttachment")).first)
        guard case .uuid(let noteID)? = note.value(forKey: "identifier"), case .uuid(let imageID)? = attachment.value(forKey: "identifier") else {
            Issue.record("no identifiers"); return
        }
        #expect(noteID != imageID)
    }
}

/// What v4 -> v5's validation reads, and a function that breaks its promise.
extension V5MigrationTests {
    /// A v4 store made from the v3 fixture, and the v4 -> v5 mapping model.
    private func v4Store(in folder: TemporaryFolder) throws -> (url: URL, mapping: MappingModel) {
        let url = try copy(ProjectFixtures.folder.appendingPathComponent("v3.sqlite"), as: "v4.sqlite", in: folder)
        try migrate(url, to: "v4")
        let mappings = try UnCloudNotesModel.loadMappingModels(for: UnCloudNotesModel.load())
        return (url, try #require(MappingModel.find(in: mappings, from: version("v4"), to: version("v5"))))
    }

    @Test("v4 -> v5 validation reads no notes: identifiers are promised UUIDs, pinned a valid constant, the rest copied")
    func validationSkipsWhatIsValidAsMade() throws {
        let folder = try TemporaryFolder()
        let (url, mapping) = try v4Store(in: folder)
        let statements = LogCollector()
        let validationStart = LockedCounter()
        try MigrationManager.migrateStore(from: url, sourceModel: version("v4"), to: folder.url.appendingPathComponent("v5.sqlite"),
                                          destinationModel: version("v5"), mappingModel: mapping,
                                          policies: UnCloudNotesModel.migrationPolicies, options: StoreOptions(sqlLogger: statements.logger),
                                          progress: { if $0.stage == .validating, validationStart.value == 0 { validationStart.set(statements.messages.count) } })
        let reads = statements.messages.dropFirst(validationStart.value)
            .filter { $0.hasPrefix("sql: SELECT") && !$0.contains("sqlite_master") }
        // ZATTACHMENT only, for its links to notes; nothing makes tags or plain attachments.
        #expect(reads.count == 1 && reads.allSatisfy { $0.contains(#"FROM "ZATTACHMENT""#) }, "\(reads)")
        #expect(!reads.contains { $0.contains("ZIDENTIFIER") }, "\(reads)")
    }

    @Test("a function that breaks its promise fails the migration, naming it, and leaves no new store")
    func brokenPromiseFails() throws {
        let folder = try TemporaryFolder()
        let (url, mapping) = try v4Store(in: folder)
        var policies = UnCloudNotesModel.migrationPolicies
        policies.register(BrokenPromisePolicy.self, as: IdentifierMigrationPolicyV4toV5.className)
        let destination = folder.url.appendingPathComponent("v5.sqlite")
        let error = try #require(throws: MigrationError.self) {
            try MigrationManager.migrateStore(from: url, sourceModel: version("v4"), to: destination, destinationModel: version("v5"),
                                              mappingModel: mapping, policies: policies)
        }
        #expect(error.description.contains("not_an_identifier gave \"text\", not the UUID value it promises"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
}

/// v4 -> v5's policy with an identifier function that promises UUIDs and gives text.
final class BrokenPromisePolicy: EntityMigrationPolicy, SetBasedMigrationPolicy {
    static let notAnIdentifier = MigrationFunction(name: "not_an_identifier", isDeterministic: false, alwaysGives: .uuid) { _ in
        .string("text")
    }

    var leavesCopiedValues: Bool { true }

    func computedValues(for mapping: EntityMapping) throws -> [String: ComputedValue] {
        ["identifier": ComputedValue(Self.notAnIdentifier, [])]
    }
}

extension V5MigrationTests {
    @Test("v4 -> v5 takes each attachment's note from its own row, with no table of links; one whose note is gone gets none")
    func linksReadInPlace() throws {
        let folder = try TemporaryFolder()
        let (url, mapping) = try v4Store(in: folder)
        let queue = try DatabaseQueue(path: url.path)
        let (orphan, linked) = try queue.write { db in
            let orphan = try #require(try Int64.fetchOne(db, sql: "SELECT MIN(Z_PK) FROM ZATTACHMENT"))
            try db.execute(sql: "UPDATE ZATTACHMENT SET ZNOTE = 999999 WHERE Z_PK = ?", arguments: [orphan])
            let linked = try Row.fetchAll(db, sql: "SELECT Z_PK, ZNOTE FROM ZATTACHMENT WHERE Z_PK != ? ORDER BY Z_PK", arguments: [orphan])
                .map { "\($0[0] as Int64) \($0[1] as Int64)" }
            return (orphan, linked)
        }
        try queue.close()
        #expect(!linked.isEmpty)
        let statements = LogCollector()
        let destination = folder.url.appendingPathComponent("v5.sqlite")
        try MigrationManager.migrateStore(from: url, sourceModel: version("v4"), to: destination, destinationModel: version("v5"),
                                          mappingModel: mapping, policies: UnCloudNotesModel.migrationPolicies,
                                          options: StoreOptions(sqlLogger: statements.logger))
        #expect(!statements.messages.contains { $0.contains("MS_LINK") }, "\(statements.messages.filter { $0.contains("MS_LINK") })")
        let migrated = try DatabaseQueue(path: destination.path)
        defer { try? migrated.close() }
        let (kept, orphanNote) = try migrated.read { db in
            (try Row.fetchAll(db, sql: "SELECT Z_PK, ZNOTE FROM ZATTACHMENT WHERE Z_PK != ? ORDER BY Z_PK", arguments: [orphan])
                .map { "\($0[0] as Int64) \($0[1] as Int64)" },
             try Row.fetchOne(db, sql: "SELECT ZNOTE FROM ZATTACHMENT WHERE Z_PK = ?", arguments: [orphan]).map { $0[0] as Int64? })
        }
        #expect(kept == linked)
        #expect(orphanNote == .some(nil))
    }
}
