import Foundation
import ManagedStore
import TestSupport
import UnCloudNotesKit

/// Builds stores of the app's older versions through the engine, untyped, as the app of that
/// version would have written them.
enum AppStores {
    static let model = try! UnCloudNotesModel.load()

    static func version(_ number: Int) -> ManagedObjectModel {
        model.version(named: number == 1 ? "UnCloudNotesDataModel" : "UnCloudNotesDataModel v\(number)")!
    }

    struct NoteSpec {
        var title: String
        var body: String
        var date: Double
        var images: [Data] = []
    }

    static let png = TestImages.encoded(width: 30, height: 20, format: "png")
    static let jpeg = TestImages.encoded(width: 48, height: 64, format: "jpeg")

    static let notes: [NoteSpec] = [
        NoteSpec(title: "Shopping", body: "milk, eggs", date: 1000, images: [png]),
        NoteSpec(title: "笔记 🗒️", body: String(repeating: "长", count: 100) + " end", date: 2000),
        NoteSpec(title: "Empty", body: "", date: 3000, images: [jpeg, png]),
        NoteSpec(title: "Long", body: String(repeating: "é", count: 79) + "🙂🙂", date: 4000, images: [jpeg]),
    ]

    /// A store of `version` holding `notes`: images as the version stores them (v2 one per note,
    /// v3 every one as an Attachment; v1 none).
    static func make(version number: Int, notes: [NoteSpec] = notes, in folder: TemporaryFolder,
                     name: String = "UnCloudNotesDataModel.sqlite") throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        let store = try PersistentStore.create(at: url, model: version(number))
        let context = ManagedObjectContext(store: store)
        for (index, spec) in notes.enumerated() {
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.string(spec.title), forKey: "title")
            note.setValue(.string(spec.body), forKey: "body")
            note.setValue(.date(Date(timeIntervalSinceReferenceDate: spec.date)), forKey: "dateCreated")
            note.setValue(.integer(Int64(index)), forKey: "displayIndex")
            if number == 2, let image = spec.images.first { note.setValue(.data(image), forKey: "image") }
            if number >= 3 {
                for (offset, image) in spec.images.enumerated() {
                    let attachment = try context.insertObject(entityName: number == 3 ? "Attachment" : "ImageAttachment")
                    attachment.setValue(.date(Date(timeIntervalSinceReferenceDate: spec.date + Double(offset + 1))), forKey: "dateCreated")
                    attachment.setValue(.data(image), forKey: "image")
                    if number == 4 { attachment.setValue(.string(""), forKey: "caption") }
                    attachment.setObject(note, forKey: "note")
                }
            }
        }
        try context.save()
        try store.close()
        return url
    }
}
