import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// A model with one attribute that allows external storage (`image`) beside one that does not
/// (`plain`), both Binary.
enum PhotoModel {
    static let entities = """
        <entity name="Photo">
            <attribute name="name" attributeType="String"/>
            <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="plain" optional="YES" attributeType="Binary"/>
        </entity>
        """

    static func load() throws -> ManagedObjectModel {
        let folder = try TemporaryFolder()
        return try ModelFileReader.read(at: try ModelFiles.writeVersion("Photos", entities: entities, in: folder.url)).current
    }

    /// Bytes of a given size that differ from position to position.
    static func bytes(_ count: Int, seed: UInt8 = 7) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
    }
}

@Suite("External binary storage: reading and writing")
struct ExternalBinaryStorageTests {
    let folder: TemporaryFolder
    let store: PersistentStore

    init() throws {
        folder = try TemporaryFolder()
        store = try PersistentStore.create(at: folder.url.appendingPathComponent("Photos.sqlite"), model: PhotoModel.load())
    }

    /// Inserts a row the way Core Data would have written it.
    private func insertRow(_ key: Int64, image: DatabaseValue, plain: DatabaseValue = .null) throws {
        let entity = try #require(store.schema.entity(named: "Photo")).number
        try store.database.write { db in
            try db.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZIMAGE, ZPLAIN) VALUES (?, ?, 1, ?, ?, ?)",
                           arguments: [key, entity, "photo \(key)", image, plain])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = MAX(Z_MAX, ?) WHERE Z_ENT = ?", arguments: [key, entity])
        }
    }

    /// Writes a value's file into the store's `_EXTERNAL_DATA` folder by hand.
    private func writeExternalFile(_ name: String, _ content: Data) throws {
        let external = folder.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try content.write(to: external.appendingPathComponent(name))
    }

    /// Writes the value's file and a row naming it.
    private func insertExternalRow(_ key: Int64, _ content: Data) throws {
        let name = UUID().uuidString
        try writeExternalFile(name, content)
        try insertRow(key, image: (Data([0x02]) + Data(name.utf8)).databaseValue)
    }

    private func image(of key: Int64) throws -> AttributeValue? {
        let context = ManagedObjectContext(store: store)
        let photo = try #require(try context.fetch(FetchRequest(entityName: "Photo")).first { $0.objectID.primaryKey == key })
        return photo.value(forKey: "image")
    }

    @Test("the support folder is named after the store without its extension, as Core Data names it")
    func folderName() {
        let folder = ExternalDataFolder(storeAt: URL(fileURLWithPath: "/data/My.Notes.sqlite"))
        #expect(folder.url.path == "/data/.My.Notes_SUPPORT/_EXTERNAL_DATA")
        let backup = ExternalDataFolder(storeAt: URL(fileURLWithPath: "/data/Notes.sqlite.v1-backup"))
        #expect(backup.url.path == "/data/.Notes.sqlite.v1-backup_SUPPORT/_EXTERNAL_DATA")
    }

    @Test("inline and external values are read through the context; NULL and untagged attributes as they are")
    func readsBothForms() throws {
        let large = PhotoModel.bytes(300_000)
        let name = "0E2B5B9C-5D4A-4A57-9E3B-1C2D3E4F5A6B"
        try writeExternalFile(name, large)
        try insertRow(1, image: (Data([0x01]) + Data("small".utf8)).databaseValue,
                      plain: (Data([0x02]) + Data("raw".utf8)).databaseValue)
        try insertRow(2, image: (Data([0x02]) + Data(name.utf8)).databaseValue)
        try insertRow(3, image: .null)
        // Lowercase, with the trailing NUL some writers leave.
        try insertRow(4, image: (Data([0x02]) + Data(name.lowercased().utf8) + Data([0])).databaseValue)

        #expect(try image(of: 1) == .data(Data("small".utf8)))
        #expect(try image(of: 2) == .data(large))
        #expect(try image(of: 3) == nil)
        #expect(try image(of: 4) == .data(large))
        let context = ManagedObjectContext(store: store)
        let first = try #require(try context.fetch(FetchRequest(entityName: "Photo")).first { $0.objectID.primaryKey == 1 })
        #expect(first.value(forKey: "plain") == .data(Data([0x02]) + Data("raw".utf8)))
    }

    @Test("a wrong tag, a malformed file name or a missing file is an error naming table, column and row")
    func refusesBadValues() throws {
        let missing = "11111111-2222-3333-4444-555555555555"
        let cases: [(DatabaseValue, ExternalDataProblem)] = [
            ((Data([0x07]) + Data("x".utf8)).databaseValue, .unknownTag(0x07)),
            (Data().databaseValue, .missingTag),
            ((Data([0x02]) + Data("not-a-uuid".utf8)).databaseValue, .malformedFileName("not-a-uuid")),
            ((Data([0x02]) + Data(missing.utf8)).databaseValue,
             .missingFile(path: store.externalData.file(named: missing).path)),
            ("text".databaseValue, .notABlob),
        ]
        for (key, (stored, problem)) in cases.enumerated() {
            let primaryKey = Int64(key + 10)
            try insertRow(primaryKey, image: stored)
            let expected = StoreMismatch.externalData(table: "ZPHOTO", column: "ZIMAGE", primaryKey: primaryKey, problem: problem)
            #expect(throws: StoreError(path: store.url.path, mismatch: expected)) { try image(of: primaryKey) }
            try store.database.write { try $0.execute(sql: "DELETE FROM ZPHOTO") }
        }
    }

    @Test("store export shows an external value's real bytes")
    func exportReadsFiles() throws {
        let large = PhotoModel.bytes(200_000)
        try insertExternalRow(1, large)
        var output = ""
        try StoreExport(context: ManagedObjectContext(store: store)).write(json: true) { output += $0 }
        #expect(output.contains(large.base64EncodedString()))
    }

    @Test("a predicate comparing an external value is answered from the real bytes")
    func predicateOnExternalValue() throws {
        let large = PhotoModel.bytes(150_000)
        try insertExternalRow(1, large)
        try insertRow(2, image: (Data([0x01]) + Data("small".utf8)).databaseValue)
        let context = ManagedObjectContext(store: store)
        for (value, key) in [(large, Int64(1)), (Data("small".utf8), Int64(2))] {
            let found = try context.fetch(FetchRequest(entityName: "Photo", predicate: try ObjectPredicate(format: "image == $value"),
                                                       substitutionVariables: ["value": .data(value)]))
            #expect(found.map(\.objectID.primaryKey) == [key])
        }
    }

    // MARK: Writing

    private func insertPhoto(image: Data?, plain: Data? = nil, in context: ManagedObjectContext) throws -> ManagedObject {
        let photo = try context.insertObject(entityName: "Photo")
        photo.setValue(.string("photo"), forKey: "name")
        photo.setValue(image.map(AttributeValue.data), forKey: "image")
        photo.setValue(plain.map(AttributeValue.data), forKey: "plain")
        return photo
    }

    /// A photo saved with the image, and its context.
    private func savedPhoto(image: Data) throws -> (ManagedObjectContext, ManagedObject) {
        let context = ManagedObjectContext(store: store)
        let photo = try insertPhoto(image: image, in: context)
        try context.save()
        return (context, photo)
    }

    private func storedImage(_ key: Int64?) throws -> Data? {
        try store.database.read { try Data.fetchOne($0, sql: "SELECT ZIMAGE FROM ZPHOTO WHERE Z_PK = ?", arguments: [key]) }
    }

    private func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("small values are stored inline after tag 0x01, large ones in a 0600 file named after tag 0x02")
    func tagLayoutOnDisk() throws {
        let context = ManagedObjectContext(store: store)
        let small = PhotoModel.bytes(ExternalBinaryBlob.externalThreshold)
        let large = PhotoModel.bytes(ExternalBinaryBlob.externalThreshold + 1)
        let inline = try insertPhoto(image: small, plain: large, in: context)
        let external = try insertPhoto(image: large, in: context)
        let empty = try insertPhoto(image: nil, in: context)
        try context.save()

        #expect(try storedImage(inline.objectID.primaryKey) == Data([0x01]) + small)
        #expect(try store.database.read { try Data.fetchOne($0, sql: "SELECT ZPLAIN FROM ZPHOTO WHERE Z_PK = ?",
                                                            arguments: [inline.objectID.primaryKey]) } == large)
        #expect(try storedImage(empty.objectID.primaryKey) == nil)
        let stored = try #require(try storedImage(external.objectID.primaryKey))
        #expect(stored.count == 37 && stored.first == 0x02)
        let name = String(decoding: stored.dropFirst(), as: UTF8.self)
        #expect(UUID(uuidString: name)?.uuidString == name)
        let file = folder.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA/\(name)")
        #expect(try Data(contentsOf: file) == large)
        #expect(try mode(file) == 0o600)
        #expect(try mode(file.deletingLastPathComponent()) == 0o700)
        #expect(try mode(file.deletingLastPathComponent().deletingLastPathComponent()) == 0o700)
    }

    @Test("small and large values come back the same through a new connection")
    func roundTrip() throws {
        let context = ManagedObjectContext(store: store)
        let values = [Data(), Data("tiny".utf8), PhotoModel.bytes(5_000), PhotoModel.bytes(400_000, seed: 3)]
        let photos = try values.map { try insertPhoto(image: $0, in: context) }
        try context.save()
        let reopened = ManagedObjectContext(store: try PersistentStore.open(at: store.url, model: store.model))
        let fetched = try reopened.fetch(FetchRequest(entityName: "Photo"))
        for (photo, value) in zip(photos, values) {
            let read = try #require(fetched.first { $0.objectID.primaryKey == photo.objectID.primaryKey })
            #expect(read.value(forKey: "image") == .data(value))
        }
    }

    @Test("a replaced or deleted value's file is removed after the commit; an unchanged one keeps its file")
    func filesFollowValues() throws {
        let (context, photo) = try savedPhoto(image: PhotoModel.bytes(200_000))
        let first = try store.externalData.fileNames()
        #expect(first.count == 1)

        photo.setValue(.string("renamed"), forKey: "name")
        try context.save()
        #expect(try store.externalData.fileNames() == first)

        photo.setValue(.data(PhotoModel.bytes(250_000, seed: 9)), forKey: "image")
        try context.save()
        let second = try store.externalData.fileNames()
        #expect(second.count == 1 && second != first)

        photo.setValue(.data(Data("small now".utf8)), forKey: "image")
        try context.save()
        #expect(try store.externalData.fileNames().isEmpty)

        photo.setValue(.data(PhotoModel.bytes(250_000)), forKey: "image")
        try context.save()
        #expect(try store.externalData.fileNames().count == 1)
        context.delete(photo)
        try context.save()
        #expect(try store.externalData.fileNames().isEmpty)
    }

    @Test("a save that fails leaves no file behind and the stored value as it was")
    func failedSaveRemovesItsFiles() throws {
        let (context, photo) = try savedPhoto(image: PhotoModel.bytes(200_000))
        let before = try store.externalData.fileNames()
        let key = try #require(photo.objectID.primaryKey)
        let stored = try storedImage(key)

        // Another connection saves the object first: this save is a conflict and rolls back.
        let other = ManagedObjectContext(store: try PersistentStore.open(at: store.url, model: store.model))
        let theirs = try #require(try other.fetch(FetchRequest(entityName: "Photo")).first)
        theirs.setValue(.string("theirs"), forKey: "name")
        try other.save()
        photo.setValue(.data(PhotoModel.bytes(300_000, seed: 1)), forKey: "image")
        #expect(throws: ContextError.self) { try context.save() }
        #expect(try store.externalData.fileNames() == before)
        #expect(try storedImage(key) == stored)
    }
}
