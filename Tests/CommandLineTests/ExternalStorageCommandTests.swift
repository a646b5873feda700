import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport

/// `store export` and `store info` on a store whose tagged columns and external file were written
/// by hand, as Core Data writes them.
@Suite("uncloudnotes store … with external binary storage")
struct ExternalStorageCommandTests {
    let folder: TemporaryFolder
    let model: URL
    let store: URL
    let large = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    init() throws {
        folder = try TemporaryFolder()
        model = folder.url.appendingPathComponent("Photos.xcdatamodeld")
        try ModelFiles.writeVersion("Photos", entities: """
            <entity name="Photo">
                <attribute name="name" attributeType="String"/>
                <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            </entity>
            """, in: model)
        try folder.write(ModelFiles.currentVersion("Photos"), to: "Photos.xcdatamodeld/.xccurrentversion")
        store = folder.url.appendingPathComponent("Photos.sqlite")
        let created = try PersistentStore.create(at: store, model: try ModelFileReader.read(at: model).current)
        try created.close()
    }

    private func insert(_ key: Int64, image: Data) throws {
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZIMAGE) VALUES (?, 1, 1, ?, ?)",
                           arguments: [key, "photo \(key)", image])
        }
        try queue.close()
    }

    @Test("export reads inline and external values; info names the attribute and its folder")
    func exportAndInfo() throws {
        let name = "5A5A5A5A-1B1B-4C4C-8D8D-9E9E9E9E9E9E"
        let external = folder.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try large.write(to: external.appendingPathComponent(name))
        try insert(1, image: Data([0x01]) + Data("tiny".utf8))
        try insert(2, image: Data([0x02]) + Data(name.utf8))

        let export = try BuiltExecutable.run(["store", "export", store.path, "--model", model.path, "--json"])
        #expect(export.exitCode == 0)
        #expect(export.standardOutput.contains(Data("tiny".utf8).base64EncodedString()))
        #expect(export.standardOutput.contains(large.base64EncodedString()))

        let info = try BuiltExecutable.run(["store", "info", store.path, "--model", model.path])
        #expect(info.exitCode == 0)
        #expect(info.standardOutput.contains("external storage: Photo.image (\(StorePath.real(external).path): 1 file, 150000 bytes)"))
    }

    @Test("export of a value whose file is missing fails with one line naming table, column and row")
    func missingFile() throws {
        try insert(7, image: Data([0x02]) + Data("11111111-2222-3333-4444-555555555555".utf8))
        let export = try BuiltExecutable.run(["store", "export", store.path, "--model", model.path])
        #expect(export.exitCode == 1)
        #expect(export.standardError.split(separator: "\n").count == 1)
        #expect(export.standardError.contains("ZPHOTO.ZIMAGE of row 7 holds a reference to"))
    }
}
