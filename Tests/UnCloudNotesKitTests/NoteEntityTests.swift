import Foundation
import GRDB
import ManagedStore
import Testing
import TestSupport
import UnCloudNotesKit

@Suite("The app's entities on a v4 store")
struct NoteEntityTests {
    @Test("a new note is dated, images are stored as their encoded bytes and decoded on demand")
    func notesWithImages() throws {
        let folder = try TemporaryFolder()
        let model = try UnCloudNotesModel.load()
        let url = folder.url.appendingPathComponent("UnCloudNotesDataModel.sqlite")
        let context = try UnCloudNotesStore.createCurrent(at: url, model: model)
        let png = TestImages.encoded(width: 40, height: 30, format: "png")
        let jpeg = TestImages.encoded(width: 64, height: 48, format: "jpeg")

        let before = Date()
        let note = try context.insert(Note.self, entityName: "Note")
        #expect(note.dateCreated.map { $0 >= before } == true)
        note.title = "Groceries 🛒"
        note.body = "milk, 牛奶"
        #expect(note.image == nil && note.latestAttachment == nil)
        for (offset, data) in [png, jpeg].enumerated() {
            let attachment = try context.insert(ImageAttachment.self, entityName: "ImageAttachment")
            attachment.dateCreated = Date(timeIntervalSinceReferenceDate: 1000 + Double(offset))
            attachment.image = try NoteImage(validating: data)
            attachment.caption = "picture \(offset)"
            attachment.note = note
        }
        try context.save()

        let stored = try context.store.database.read { db in
            try Data.fetchAll(db, sql: "SELECT ZIMAGE FROM ZATTACHMENT ORDER BY ZDATECREATED")
        }
        #expect(stored == [png, jpeg])

        let other = ManagedObjectContext(store: try PersistentStore.open(at: url, model: model.current),
                                         entityClasses: UnCloudNotesEntities.currentVersionClasses)
        let fetched = try #require(try other.fetch(FetchRequest(entityName: "Note"), as: Note.self).first)
        #expect(fetched.title == "Groceries 🛒" && fetched.body == "milk, 牛奶")
        #expect(fetched.attachments.count == 2)
        #expect((fetched.latestAttachment as? ImageAttachment)?.caption == "picture 1")
        let image = try #require(fetched.image)
        #expect(image.data == jpeg)
        #expect(try image.pixelSize() == (64, 48))
        #expect(image.formatName == "jpeg")
    }

    @Test("the current version's Note needs a title and a body")
    func validation() throws {
        let folder = try TemporaryFolder()
        let context = try UnCloudNotesStore.createCurrent(at: folder.url.appendingPathComponent("s.sqlite"),
                                                          model: UnCloudNotesModel.load())
        let note = try context.insert(Note.self, entityName: "Note")
        let error = try #require(throws: ValidationError.self) { try context.save() }
        #expect(Set(error.problems.map(\.description)) == ["Note.body: a value is required", "Note.title: a value is required"])
        note.title = "t"
        note.body = ""
        try context.save()
    }
}

@Suite("Note images through gdk-pixbuf")
struct NoteImageTests {
    @Test("size from the header, for PNG and JPEG", arguments: ["png", "jpeg"])
    func pixelSize(format: String) throws {
        let image = try NoteImage(validating: TestImages.encoded(width: 123, height: 45, format: format))
        #expect(try image.pixelSize() == (123, 45))
        #expect(image.formatName == format)
    }

    @Test("the size is read from the header alone: a truncated file still tells it")
    func sizeFromHeaderOnly() throws {
        let png = TestImages.encoded(width: 300, height: 200, format: "png")
        let truncated = NoteImage(storedData: png.prefix(100))
        #expect(try truncated.pixelSize() == (300, 200))
        #expect(throws: ImageError.self) { try NoteImage(validating: truncated.data) }
    }

    @Test("decoding scales down to fit a box, keeping the aspect ratio")
    func scaledDecode() throws {
        let image = try NoteImage(validating: TestImages.encoded(width: 400, height: 200, format: "jpeg"))
        let decoded = try image.decoded(fittingWidth: 100, height: 100)
        #expect(decoded.width == 100 && decoded.height == 50)
        #expect(decoded.pixels.count >= decoded.rowStride * (decoded.height - 1) + decoded.width * 4)
        let full = try image.decoded()
        #expect(full.width == 400 && full.height == 200)
    }

    @Test("bytes that are not a decodable image are refused", arguments: [
        Data(), Data("just text, not an image".utf8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),
        TestImages.encoded(width: 200, height: 200, format: "png").prefix(300),
        TestImages.encoded(width: 200, height: 200, format: "jpeg").prefix(600),
    ])
    func refused(data: Data) {
        #expect(throws: ImageError.self) { try NoteImage(validating: data) }
    }

    @Test("a missing file is refused with its path")
    func missingFile() throws {
        let error = try #require(throws: ImageError.self) { try NoteImage(contentsOf: URL(fileURLWithPath: "/nonexistent/cat.png")) }
        #expect(error.reason == "/nonexistent/cat.png: cannot read the file")
    }
}

@Suite("Opening old app stores for inspection")
struct InspectionTests {
    @Test("a v1 store opens read-only with untyped objects")
    func openV1() throws {
        let folder = try TemporaryFolder()
        let model = try UnCloudNotesModel.load()
        let v1 = try #require(model.version(named: "UnCloudNotesDataModel"))
        let url = folder.url.appendingPathComponent("old.sqlite")
        let writer = ManagedObjectContext(store: try PersistentStore.create(at: url, model: v1))
        let note = try writer.insertObject(entityName: "Note")
        note.setValue(.string("Old note"), forKey: "title")
        note.setValue(.string("From v1"), forKey: "body")
        try writer.save()

        let context = try UnCloudNotesStore.openForInspection(at: url, model: model)
        #expect(context.model.name == "UnCloudNotesDataModel")
        let notes = try context.fetch(FetchRequest(entityName: "Note"))
        #expect(notes.map { $0.value(forKey: "title") } == [.string("Old note")])
        #expect(!(notes[0] is Note))
        notes[0].setValue(.string("changed"), forKey: "title")
        #expect(throws: ContextError.self) { try context.save() }
    }

    @Test("a store of no known version is refused as probably newer")
    func unknownVersion() throws {
        let folder = try TemporaryFolder()
        let store = try LibraryModel.createStore(in: folder)
        try store.close()
        let error = try #require(throws: StoreError.self) {
            try UnCloudNotesStore.openForInspection(at: store.url, model: UnCloudNotesModel.load())
        }
        #expect(error.reason.contains("written by a newer version of UnCloudNotes?"))
    }
}
