import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// Compiled models: the cache Core Data keeps in its stores, `.mom` files and `.momd` folders.
@Suite("Compiled models and the in-store model cache")
struct CompiledModelTests {
    @Test("SampleModel3's cached model opens its store and hashes as its Xcode model",
          SharedFixtures.required)
    func sampleModel3Cache() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let cached = try #require(try StoreModelCache.read(storeAt: store))
        let source = try #require(try ModelFileReader.read(
            at: SharedFixtures.url("coredata-samplemodel3/SampleModel3.xcdatamodeld")).version(named: "SampleModel3"))
        #expect(cached.entityVersionHashes == source.entityVersionHashes)
        #expect(cached.entities.map(\.name) == ["User"])
        #expect(cached.allAttributes(of: "User").map(\.name) == ["name", "petName"])
        #expect(cached.allAttributes(of: "User").map(\.isOptional) == [false, true])
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: cached))
    }

    @Test("SampleModel2's cache: a derived attribute, Int.max counts and a hierarchy read as Apple hashed them",
          SharedFixtures.required)
    func sampleModel2Cache() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredataplus-samplemodel2/SampleModel2_V1.sqlite"))
        let cached = try #require(try StoreModelCache.read(storeAt: store))
        let pagesCount = try #require(cached.entity(named: "Book")?.attributes.first { $0.name == "pagesCount" })
        #expect(pagesCount.isDerived && pagesCount.derivationExpression == "count:(pages)")
        #expect(cached.entity(named: "GraphicNovel")?.parentName == "Book")
        #expect(cached.entity(named: "GraphicNovel")?.attributes.map(\.name) == ["isBlackAndWhite"])
        #expect(cached.entity(named: "Writer")?.isAbstract == true)
        let books = try #require(cached.entity(named: "Author")?.relationships.first { $0.name == "books" })
        #expect(books.isToMany && books.maxCount == Int.max && books.deleteRule == .cascade)
        #expect(cached.entity(named: "Author")?.uniquenessConstraints == [["alias"]])
    }

    @Test("every wibosco store's cache reads and matches the store", SharedFixtures.required,
          arguments: ["CoreDataMigration_Example_1", "CoreDataMigration_Example_2", "CoreDataMigration_Example_3",
                      "CoreDataMigration_Example_WAL"])
    func wiboscoCaches(store name: String) throws {
        let folder = try TemporaryFolder()
        let stores = SharedFixtures.url("wibosco-migration-example/stores")
        let store = try folder.copy(stores.appendingPathComponent("\(name).sqlite"))
        if name.hasSuffix("WAL") {
            _ = try folder.copy(stores.appendingPathComponent("\(name).sqlite-wal"))
        }
        let cached = try #require(try StoreModelCache.read(storeAt: store))
        #expect(cached.entities.contains { $0.name == "Post" })
    }

    @Test("a store without a cache gives nil")
    func noCache() throws {
        let folder = try TemporaryFolder()
        let store = try ProjectFixtures.copyStore("v1", into: folder)
        #expect(try StoreModelCache.read(storeAt: store) == nil)
    }

    @Test("a damaged cache is refused as undecodable", SharedFixtures.required)
    func damagedCache() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = substr(Z_CONTENT, 1, 100)")
        }
        #expect {
            try StoreModelCache.read(storeAt: store)
        } throws: { error in
            guard case StoreModelCacheError.undecodable = error else { return false }
            return "\(error)".contains("--model")
        }
    }

    @Test("another store's cache is refused: its hashes are not the store's", SharedFixtures.required)
    func foreignCache() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredata-samplemodel3/SampleModel3_V1.sqlite"))
        let other = try folder.copy(SharedFixtures.url("wibosco-migration-example/stores/CoreDataMigration_Example_1.sqlite"))
        let compressed = try #require(try DatabaseQueue(path: other.path).read {
            try Data.fetchOne($0, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
        })
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = ?", arguments: [compressed])
        }
        #expect {
            try StoreModelCache.read(storeAt: store)
        } throws: { error in
            guard case StoreModelCacheError.hashesDoNotMatch(_, let entities) = error else { return false }
            return entities.contains("User") && entities.contains("Post")
        }
    }

    @Test("a .mom file reads through ModelFileReader, as --model takes it", SharedFixtures.required)
    func momFile() throws {
        let folder = try TemporaryFolder()
        let store = try folder.copy(SharedFixtures.url("coredataplus-samplemodel2/SampleModel2_V1.sqlite"))
        let mom = folder.url.appendingPathComponent("SampleModel2V1.mom")
        try #require(try StoreModelCache.compiledModelData(storeAt: store)).write(to: mom)
        let model = try ModelFileReader.read(at: mom)
        #expect(model.current.name == "SampleModel2V1")
        #expect(try StoreMetadata.read(storeAt: store).isCompatible(with: model.current))
    }

    @Test("a .momd folder reads its versions, takes the current one from VersionInfo.plist and checks its hashes",
          SharedFixtures.required)
    func momdFolder() throws {
        let folder = try TemporaryFolder()
        let momd = folder.url.appendingPathComponent("Examples.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        var hashes: [String: [String: Data]] = [:]
        for (index, name) in ["CoreDataMigration_Example_1", "CoreDataMigration_Example_3"].enumerated() {
            let store = try folder.copy(SharedFixtures.url("wibosco-migration-example/stores/\(name).sqlite"))
            try #require(try StoreModelCache.compiledModelData(storeAt: store))
                .write(to: momd.appendingPathComponent("Version \(index + 1).mom"))
            hashes["Version \(index + 1)"] = try StoreMetadata.read(storeAt: store).versionHashes
        }
        try writeVersionInfo(current: "Version 2", hashes: hashes, in: momd)
        let model = try ModelFileReader.read(at: momd)
        #expect(model.versions.map(\.name) == ["Version 1", "Version 2"])
        #expect(model.current.name == "Version 2")
        #expect(model.current.entity(named: "Color") != nil)

        // A version entry of another shape is skipped, not a reason to refuse the whole model.
        let odd: [String: Any] = ["NSManagedObjectModel_CurrentVersionName": "Version 2",
                                  "NSManagedObjectModel_VersionHashes": ["Version 1": "not hashes", "Version 2": hashes["Version 2"] ?? [:]]]
        try PropertyListSerialization.data(fromPropertyList: odd, format: .xml, options: 0)
            .write(to: momd.appendingPathComponent("VersionInfo.plist"))
        #expect(try ModelFileReader.read(at: momd).current.name == "Version 2")

        hashes["Version 1"]?["Post"] = Data(repeating: 0, count: 32)
        try writeVersionInfo(current: "Version 2", hashes: hashes, in: momd)
        let error = try #require(throws: ModelError.self) { try ModelFileReader.read(at: momd) }
        #expect(error.reason == .hashesDiffer(entities: ["Post"]))
    }

    @Test("a file that is not a compiled model is refused with a ModelError")
    func notAModel() throws {
        let folder = try TemporaryFolder()
        let mom = try folder.write("not a property list", to: "Broken.mom")
        let error = try #require(throws: ModelError.self) { try ModelFileReader.read(at: mom) }
        #expect(error.file == mom.path)
        guard case .notACompiledModel = error.reason else {
            Issue.record("expected not a compiled model, got \(error)")
            return
        }
    }

    private func writeVersionInfo(current: String, hashes: [String: [String: Data]], in momd: URL) throws {
        let plist: [String: Any] = ["NSManagedObjectModel_CurrentVersionName": current,
                                    "NSManagedObjectModel_VersionHashes": hashes]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: momd.appendingPathComponent("VersionInfo.plist"))
    }
}
