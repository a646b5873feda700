import Foundation
import GRDB
@testable import ManagedStore
import Testing
import TestSupport

/// A migration that keeps the indexed entity's rows, keys and indexed values carries the text
/// index to the new store; any other leaves it to be rebuilt, and a failed one leaves it as it was.
@Suite("The text index carried across migrations")
struct TextIndexCarryTests {
    private static let configuration = TextIndexConfiguration(entityName: "Note", attributes: ["title", "body"], orderAttribute: "date")

    /// v1; v2 adds an optional image (in place); v3 adds an optional flag, through a mapping
    /// model; v4 adds an entity, leaving Note (and its version hash) as it is.
    private static let versions = [
        #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="date" attributeType="Date"/></entity>"#,
        #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="date" attributeType="Date"/><attribute name="image" optional="YES" attributeType="Binary"/></entity>"#,
        #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="date" attributeType="Date"/><attribute name="image" optional="YES" attributeType="Binary"/><attribute name="pinned" optional="YES" attributeType="Boolean"/></entity>"#,
        #"<entity name="Note"><attribute name="title" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/><attribute name="date" attributeType="Date"/><attribute name="image" optional="YES" attributeType="Binary"/><attribute name="pinned" optional="YES" attributeType="Boolean"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
    ]

    private static func model(in folder: TemporaryFolder) throws -> VersionedModel {
        let bundle = folder.url.appendingPathComponent("N.xcdatamodeld")
        for (index, xml) in versions.enumerated() {
            try ModelFiles.writeVersion(index == 0 ? "N" : "N v\(index + 1)", entities: xml, in: bundle)
        }
        _ = try folder.write(ModelFiles.currentVersion("N v\(versions.count)"), to: "N.xcdatamodeld/.xccurrentversion")
        return try ModelFileReader.read(at: bundle)
    }

    /// The mapping model from version `to - 1` to `to` (v3 or v4): every attribute of Note
    /// copied, except those `overriding` gives.
    private static func mapping(_ model: VersionedModel, to version: Int = 3, overriding: [String: ValueExpression] = [:]) -> MappingModel {
        let attributes = ["title", "body", "date", "image"].map { PropertyMapping(name: $0, valueExpression: overriding[$0] ?? .source($0)) }
        return MappingModel(name: "NToN\(version)", entityMappings: [
            EntityMapping(name: "NoteToNote", sourceEntityName: "Note", destinationEntityName: "Note", attributeMappings: attributes),
        ], sourceEntityHashes: model.versions[version - 2].entityVersionHashes,
           destinationEntityHashes: model.versions[version - 1].entityVersionHashes)
    }

    /// A mapping that keeps every note and its key but writes each note's title into its body.
    private static func titleAsBody(_ model: VersionedModel, to version: Int) -> MappingModel {
        Self.mapping(model, to: version, overriding: ["body": .source("title")])
    }

    /// A store of `version` holding 40 notes, 26 with a body, one of those deleted (keys have a
    /// gap), one saved twice (a save count above 1), and its index built by a search.
    private static func indexedStore(_ model: VersionedModel, version: Int = 1, in folder: TemporaryFolder) throws -> URL {
        let url = folder.url.appendingPathComponent("notes.sqlite")
        let store = try PersistentStore.create(at: url, model: model.versions[version - 1])
        let context = ManagedObjectContext(store: store)
        for number in 0..<40 {
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.string("Crème \(number)"), forKey: "title")
            if number % 3 != 0 { note.setValue(.string("body \(number) brûlée"), forKey: "body") }
            note.setValue(.date(Date(timeIntervalSinceReferenceDate: Double(number % 7))), forKey: "date")
        }
        try context.save()
        let notes = try context.fetch(FetchRequest(entityName: "Note", sortDescriptors: [SortDescriptor("title")]))
        context.delete(notes[5])
        notes[6].setValue(.string("Edited once"), forKey: "title")
        try context.save()
        notes[6].setValue(.string("Edited twice crème"), forKey: "title")
        try context.save()
        let index = try TextSearchIndex(beside: context, configuration: configuration)
        #expect(try index.primaryKeys(matching: "creme")?.count == 39)
        #expect(index.rebuiltEntryCount == 39)
        try store.close()
        return url
    }

    /// What the index answers on the store at `url` (of `version`), with how many entries it
    /// had to fold again, and what a scan of the store answers, newest first.
    private static func search(_ pattern: String, in url: URL, version: ManagedObjectModel) throws
        -> (indexed: [Int64]?, rebuilt: Int, scanned: [Int64]) {
        let store = try PersistentStore.open(at: url, model: version)
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        let index = try TextSearchIndex(beside: context, configuration: configuration)
        let indexed = try index.primaryKeys(matching: pattern)
        let folded = SearchFolding.caseAndAccentFolded(pattern)
        var matches: [(date: Date, key: Int64)] = []
        for note in try context.fetch(FetchRequest(entityName: "Note")) {
            let texts = ["title", "body"].compactMap { note.value(forKey: $0)?.displayText }
            guard texts.contains(where: { SearchFolding.caseAndAccentFolded($0).contains(folded) }),
                  case .date(let date) = note.value(forKey: "date"), let key = note.objectID.primaryKey else { continue }
            matches.append((date, key))
        }
        let scanned = matches.sorted { $0.date != $1.date ? $0.date > $1.date : $0.key > $1.key }.map(\.key)
        return (indexed, index.rebuiltEntryCount, scanned)
    }

    @Test("a chain that keeps keys and copies the indexed attributes carries the index: no entry is folded again",
          arguments: [2, 3, 4])
    func carried(target: Int) throws {
        let folder = try TemporaryFolder()
        let model = try Self.model(in: folder)
        let url = try Self.indexedStore(model, in: folder)
        let destination = model.versions[target - 1]
        try StoreMigrator(storeURL: url, model: model, target: destination, mappingModels: [Self.mapping(model)]).migrateIfNeeded()
        let search = try Self.search("CRÈME", in: url, version: destination)
        #expect(search.indexed == search.scanned)
        #expect(search.scanned.count == 39)
        #expect(search.rebuilt == 0)
        let bodies = try Self.search("brulee", in: url, version: destination)
        #expect(bodies.indexed == bodies.scanned)
        #expect(bodies.scanned.count == 25)
    }

    @Test("a carry that fails (the index file damaged mid-migration) is a warning event, and the store is migrated")
    func failedCarryWarns() throws {
        let folder = try TemporaryFolder()
        let model = try Self.model(in: folder)
        let url = try Self.indexedStore(model, in: folder)
        let destination = model.versions[2]
        let indexFile = TextSearchIndex.url(besideStoreAt: url)
        var warnings: [String] = []
        try StoreMigrator(storeURL: url, model: model, target: destination, mappingModels: [Self.mapping(model)]).migrateIfNeeded { event in
            switch event {
            // The index is read before the run; damaged after, the carry cannot open it.
            case .backupCreated: try? Data("not a database".utf8).write(to: indexFile)
            case .warning(let text): warnings.append(text)
            default: break
            }
        }
        #expect(warnings.count == 1 && warnings[0].hasPrefix("the search index was not carried"), "\(warnings)")
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: destination))
    }

    /// From v3 Note's version hash does not change: the old index would still look like the
    /// store's. `killedBeforeTheCarry`: the side file as a kill after the rename leaves it,
    /// untouched by the migration (which finds none).
    @Test("a mapping that changes the indexed text carries nothing, killed before the carry or not: the search finds the new text",
          arguments: [1, 3], [false, true])
    func changedTextNotCarried(from version: Int, killedBeforeTheCarry: Bool) throws {
        let folder = try TemporaryFolder()
        let model = try Self.model(in: folder)
        #expect(model.versions[2].entityVersionHashes["Note"] == model.versions[3].entityVersionHashes["Note"])
        let url = try Self.indexedStore(model, version: version, in: folder)
        let side = URL(fileURLWithPath: url.path + "-search"), away = folder.url.appendingPathComponent("away-search")
        if killedBeforeTheCarry { try FileManager.default.moveItem(at: side, to: away) }
        try StoreMigrator(storeURL: url, model: model, mappingModels: [Self.titleAsBody(model, to: version == 1 ? 3 : 4)]).migrateIfNeeded()
        if killedBeforeTheCarry { try FileManager.default.moveItem(at: away, to: side) }
        // The keys were kept and the save counts are the new store's: only the identity tells
        // the old index from the new store. Carried, it would still find the old bodies.
        let gone = try Self.search("brulee", in: url, version: model.current)
        #expect(gone.scanned.isEmpty)
        #expect(gone.indexed == [], "the index answered with the bodies before the migration")
        #expect(gone.rebuilt > 0)
        let kept = try Self.search("creme", in: url, version: model.current)
        #expect(kept.indexed == kept.scanned && kept.scanned.count == 39)
    }

    @Test("an index behind its store (another program wrote the store) is not carried: the search sees the change")
    func staleIndexNotCarried() throws {
        let folder = try TemporaryFolder()
        let model = try Self.model(in: folder)
        let url = try Self.indexedStore(model, in: folder)
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE ZNOTE SET ZTITLE = 'Jalapeño', Z_OPT = Z_OPT + 1 WHERE Z_PK = 1")
        }
        try StoreMigrator(storeURL: url, model: model, mappingModels: [Self.mapping(model)]).migrateIfNeeded()
        let search = try Self.search("jalapeno", in: url, version: model.current)
        #expect(search.indexed == [1])
        #expect(search.indexed == search.scanned)
        #expect(try Self.search("creme", in: url, version: model.current).indexed?.contains(1) == false)
    }

    @Test("a migration that fails leaves the index describing the old store, which it answers for without a rebuild",
          arguments: [2, 3])
    func failedMigrationKeepsTheIndex(target: Int) throws {
        let folder = try TemporaryFolder()
        let model = try Self.model(in: folder)
        let url = try Self.indexedStore(model, in: folder)
        let migrator = StoreMigrator(storeURL: url, model: model, target: model.versions[target - 1], mappingModels: [Self.mapping(model)])
        let error = try #require(throws: MigrationError.self) {
            try DurableFiles.$injectedFailure.withValue(InjectedFailure(EIO, calls: [.sync])) { try migrator.migrateIfNeeded() }
        }
        guard case .fileSystem(let operation, let code) = error else { Issue.record("\(error)"); return }
        #expect(operation.hasPrefix("cannot sync") && code == EIO, "\(error)")
        #expect(try StoreMetadata.read(storeAt: url).isCompatible(with: model.versions[0]))
        let search = try Self.search("creme", in: url, version: model.versions[0])
        #expect(search.indexed == search.scanned)
        #expect(search.rebuilt == 0)
    }
}
