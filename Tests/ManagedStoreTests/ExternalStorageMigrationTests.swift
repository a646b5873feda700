import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// A custom policy that reads the source's image: it must see the value, not its tag.
final class ImageSizeCaption: EntityMigrationPolicy {
    override func createDestinationInstances(forSource source: ManagedObject, in mapping: EntityMapping,
                                             manager: MigrationManager) throws {
        let destination = try manager.insertDestinationObject(entityName: "Photo")
        for key in ["name", "image", "plain"] { destination.setValue(source.value(forKey: key), forKey: key) }
        if case .data(let bytes)? = source.value(forKey: "image") {
            destination.setValue(.string("\(bytes.count) bytes"), forKey: "caption")
        }
        manager.associate(source: source, destination: destination, mapping: mapping)
    }
}

/// Migrations of a store whose attributes allow external storage: v1 -> v2 adds an attribute (in
/// place), v2 -> v3 moves external storage from `image` to `plain` (a copy that converts values).
@Suite("External binary storage through migrations and backups")
struct ExternalStorageMigrationTests {
    let folder: TemporaryFolder
    let model: VersionedModel
    let storeURL: URL
    let large = PhotoModel.bytes(300_000)
    let largePlain = PhotoModel.bytes(200_000, seed: 5)
    let small = Data("small".utf8)

    private static func photo(imageExternal: Bool, plainExternal: Bool, caption: Bool) -> String {
        """
        <entity name="Photo">
            <attribute name="name" attributeType="String"/>
            <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="\(imageExternal ? "YES" : "NO")"/>
            <attribute name="plain" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="\(plainExternal ? "YES" : "NO")"/>
            \(caption ? #"<attribute name="caption" optional="YES" attributeType="String"/>"# : "")
        </entity>
        """
    }

    init() throws {
        folder = try TemporaryFolder()
        let bundle = folder.url.appendingPathComponent("Photos.xcdatamodeld")
        let versions = [Self.photo(imageExternal: true, plainExternal: false, caption: false),
                        Self.photo(imageExternal: true, plainExternal: false, caption: true),
                        Self.photo(imageExternal: false, plainExternal: true, caption: true)]
        for (index, xml) in versions.enumerated() {
            try ModelFiles.writeVersion(index == 0 ? "Photos" : "Photos v\(index + 1)", entities: xml, in: bundle)
        }
        try folder.write(ModelFiles.currentVersion("Photos v3"), to: "Photos.xcdatamodeld/.xccurrentversion")
        model = try ModelFileReader.read(at: bundle)
        storeURL = folder.url.appendingPathComponent("Photos.sqlite")
        let store = try PersistentStore.create(at: storeURL, model: model.versions[0])
        let context = ManagedObjectContext(store: store)
        for (name, image, plain) in [("large", large, largePlain), ("small", small, small)] {
            let photo = try context.insertObject(entityName: "Photo")
            photo.setValue(.string(name), forKey: "name")
            photo.setValue(.data(image), forKey: "image")
            photo.setValue(.data(plain), forKey: "plain")
        }
        try context.save()
        try store.close()
    }

    private func migrate(to version: Int, cancellation: MigrationCancellation? = nil,
                         observer: @escaping (MigrationEvent) -> Void = { _ in }) throws {
        try StoreMigrator(storeURL: storeURL, model: model, target: model.versions[version - 1])
            .migrateIfNeeded(observer: observer, cancellation: cancellation)
    }

    /// name -> (image, plain), read through a context.
    private func values(at url: URL, version: Int) throws -> [String: [AttributeValue?]] {
        let store = try PersistentStore.open(at: url, model: model.versions[version - 1])
        defer { try? store.close() }
        let photos = try ManagedObjectContext(store: store).fetch(FetchRequest(entityName: "Photo"))
        return Dictionary(uniqueKeysWithValues: photos.map { photo in
            (photo.value(forKey: "name")?.displayText ?? "", [photo.value(forKey: "image"), photo.value(forKey: "plain")])
        })
    }

    private var expected: [String: [AttributeValue?]] {
        ["large": [.data(large), .data(largePlain)], "small": [.data(small), .data(small)]]
    }

    private func storedColumns(_ column: String, of url: URL? = nil) throws -> [Data] {
        let queue = try DatabaseQueue(path: (url ?? storeURL).path)
        defer { try? queue.close() }
        return try queue.read { try Data.fetchAll($0, sql: "SELECT \(column) FROM ZPHOTO ORDER BY ZNAME") }
    }

    /// Every file in the folder with its content, and every entry beside the store.
    private func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder.url, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(url.path.dropFirst(folder.url.path.count))
            files[relative] = (try? Data(contentsOf: url)) ?? Data()
        }
        return files
    }

    @Test("an in-place step leaves the stored tags and the support folder as they were")
    func inPlaceKeepsFiles() throws {
        let external = ExternalDataFolder(storeAt: storeURL)
        let files = try external.fileNames()
        #expect(files.count == 1)
        let tags = try storedColumns("ZIMAGE")
        try migrate(to: 2)
        #expect(try StoreMetadata.read(storeAt: storeURL).isCompatible(with: model.versions[1]))
        #expect(try external.fileNames() == files)
        #expect(try storedColumns("ZIMAGE") == tags)
        #expect(try values(at: storeURL, version: 2) == expected)
    }

    @Test("a step that moves external storage converts every value: files inlined, large values written out")
    func copyConvertsLayouts() throws {
        let oldFiles = try ExternalDataFolder(storeAt: storeURL).fileNames()
        try migrate(to: 3)
        #expect(try values(at: storeURL, version: 3) == expected)
        // image lost the flag: raw bytes; plain gained it: tagged, the large one in a file.
        #expect(try storedColumns("ZIMAGE") == [large, small])
        let plain = try storedColumns("ZPLAIN")
        #expect(plain[1] == Data([0x01]) + small)
        #expect(plain[0].first == 0x02)
        let name = String(decoding: plain[0].dropFirst(), as: UTF8.self)
        #expect(try ExternalDataFolder(storeAt: storeURL).fileNames() == [name])
        #expect(try Data(contentsOf: ExternalDataFolder(storeAt: storeURL).file(named: name)) == largePlain)

        // The backup carries the files of the store as it was.
        let backup = URL(fileURLWithPath: StorePath.real(storeURL).path + ".v1-backup")
        #expect(try ExternalDataFolder(storeAt: backup).fileNames() == oldFiles)
        #expect(try values(at: backup, version: 1) == expected)
        // Nothing of the working copies is left.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("migrating") || $0.contains("partial") }
        #expect(leftovers.isEmpty)
    }

    @Test("a migration that fails at its end leaves the store and its support folder exactly as they were")
    func failedMigrationChangesNothing() throws {
        let before = try snapshot()
        let cancellation = MigrationCancellation()
        let error = try #require(throws: MigrationError.self) {
            try migrate(to: 3, cancellation: cancellation) { event in
                if case .stepFinished(index: 1) = event { cancellation.cancel() }
            }
        }
        guard case .cancelled = error else { Issue.record("not cancelled: \(error)"); return }
        var after = try snapshot()
        after = after.filter { !$0.key.hasSuffix(".lock") }
        #expect(after == before)
    }

    @Test("a support folder that cannot be listed fails the migration and store info, never a backup without the files")
    func unlistableFolder() throws {
        // A file where the _EXTERNAL_DATA folder should be: it exists, yet cannot be listed.
        let external = ExternalDataFolder(storeAt: StorePath.real(storeURL))
        try FileManager.default.moveItem(at: external.url, to: folder.url.appendingPathComponent("aside"))
        try Data("not a folder".utf8).write(to: external.url)
        let before = try snapshot()
        let error = try #require(throws: StoreError.self) { try migrate(to: 2) }
        #expect(error.path == external.url.path)
        #expect(try snapshot().filter { !$0.key.hasSuffix(".lock") } == before)
        #expect(throws: StoreError.self) { try StoreReport(migrator: StoreMigrator(storeURL: storeURL, model: model)) }
    }

    @Test("store info names the attributes that allow external storage and what their folder holds")
    func storeInfo() throws {
        let report = try StoreReport(migrator: StoreMigrator(storeURL: storeURL, model: model))
        let external = try #require(report.externalStorage)
        #expect(external.attributes == ["Photo.image"])
        #expect(external.files == 1 && external.bytes == Int64(large.count))
        #expect(report.text.contains("external storage: Photo.image (\(ExternalDataFolder(storeAt: StorePath.real(storeURL)).url.path): 1 file, \(large.count) bytes)"))
    }

    /// Copies the v1 store into a new v2 store with the inferred mapping, as a mapping model.
    private func copyToVersion2(policies: MigrationPolicyRegistry = MigrationPolicyRegistry(),
                                _ adjust: (inout MappingModel) -> Void = { _ in }) throws -> URL {
        var mapping = try MappingInference.infer(from: model.versions[0], to: model.versions[1]).mappingModel
        adjust(&mapping)
        let copy = folder.url.appendingPathComponent("Copy.sqlite")
        try MigrationManager.migrateStore(from: storeURL, sourceModel: model.versions[0], to: copy,
                                          destinationModel: model.versions[1], mappingModel: mapping, policies: policies)
        return copy
    }

    private func inode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
    }

    @Test("a copying migration between versions that both store externally copies tags as they are and links their files")
    func copyKeepsTags() throws {
        let copy = try copyToVersion2()
        #expect(try storedColumns("ZIMAGE", of: copy) == storedColumns("ZIMAGE"))
        let name = try #require(ExternalDataFolder(storeAt: storeURL).fileNames().first)
        let copied = ExternalDataFolder(storeAt: copy)
        #expect(copied.url.path.hasSuffix("/.Copy_SUPPORT/_EXTERNAL_DATA"))
        #expect(try copied.fileNames() == [name])
        #expect(try inode(copied.file(named: name)) == inode(ExternalDataFolder(storeAt: storeURL).file(named: name)))
        #expect(try values(at: copy, version: 2) == expected)
    }

    @Test("a file two copied rows would name is copied, so each row owns its file")
    func duplicatedReferencesGetTheirOwnFiles() throws {
        let copy = try copyToVersion2 { mapping in
            var twin = mapping.entityMappings[0]
            twin.name += "Twin"
            mapping.entityMappings.append(twin)
        }
        let tags = try storedColumns("ZIMAGE", of: copy).filter { $0.first == 0x02 }
        #expect(tags.count == 2 && Set(tags).count == 2)
        #expect(try ExternalDataFolder(storeAt: copy).fileNames().count == 2)
        let store = try PersistentStore.open(at: copy, model: model.versions[1])
        let context = ManagedObjectContext(store: store)
        let photos = try context.fetch(FetchRequest(entityName: "Photo", predicate: try ObjectPredicate(format: "name == 'large'")))
        #expect(photos.count == 2)
        context.delete(photos[0])
        try context.save()
        let remaining = ManagedObjectContext(store: store)
        let kept = try remaining.fetch(FetchRequest(entityName: "Photo", predicate: try ObjectPredicate(format: "name == 'large'")))
        #expect(kept.map { $0.value(forKey: "image") } == [.data(large)])
    }

    @Test("a custom policy reads the real bytes of an external value, and its copy is saved with a file of its own")
    func policyReadsRealBytes() throws {
        var policies = MigrationPolicyRegistry()
        policies.register(ImageSizeCaption.self, as: "Tests.ImageSizeCaption")
        let copy = try copyToVersion2(policies: policies) { $0.entityMappings[0].policyClassName = "Tests.ImageSizeCaption" }
        #expect(try values(at: copy, version: 2) == expected)
        let store = try PersistentStore.open(at: copy, model: model.versions[1])
        defer { try? store.close() }
        let captions = try ManagedObjectContext(store: store).fetch(FetchRequest(entityName: "Photo", sortDescriptors: [SortDescriptor("name")]))
            .map { $0.value(forKey: "caption") }
        #expect(captions == [.string("\(large.count) bytes"), .string("\(small.count) bytes")])
        let files = try ExternalDataFolder(storeAt: copy).fileNames()
        #expect(try files.count == 1 && files != ExternalDataFolder(storeAt: storeURL).fileNames())
    }

    @Test("a migration run by root leaves the store's and the backup's support folders to the store's owner",
          .enabled(if: geteuid() == 0, "only root can give files to another user"))
    func ownerKeepsTheFolders() throws {
        let user: uid_t = 4321, group: gid_t = 4321
        #expect(chown(storeURL.path, user, group) == 0)
        try migrate(to: 3)
        let backup = URL(fileURLWithPath: StorePath.real(storeURL).path + ".v1-backup")
        let entries = try [storeURL, backup].map(ExternalDataFolder.init(storeAt:)).flatMap { folder in
            [folder.supportFolder, folder.url] + (try folder.fileNames()).map(folder.file(named:))
        }
        #expect(entries.count == 6)
        for entry in entries {
            var status = stat()
            #expect(stat(entry.path, &status) == 0)
            #expect(status.st_uid == user && status.st_gid == group, "\(entry.path)")
        }
    }
}
