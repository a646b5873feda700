import Foundation
import ManagedStore

/// A real app store made by the engine at the app's current model version, from the project's
/// Xcode model files: notes "first" (row 1, with image attachment 1) and "second" (row 2). Tests
/// of damaged stores damage it afterwards (`StoreDamage`).
public enum TwoNoteStore {
    /// The app's current model.
    public static func model() throws -> ManagedObjectModel {
        try ModelFileReader.read(at: SharedFixtures.packageRoot
            .appendingPathComponent("Resources/UnCloudNotesDataModel.xcdatamodeld")).current
    }

    /// Creates `notes.sqlite` in the folder and closes it.
    public static func make(in folder: TemporaryFolder) throws -> (url: URL, model: ManagedObjectModel) {
        let model = try model()
        let url = folder.url.appendingPathComponent("notes.sqlite")
        let store = try PersistentStore.create(at: url, model: model)
        let context = ManagedObjectContext(store: store)
        for (index, title) in ["first", "second"].enumerated() {
            let note = try context.insertObject(entityName: "Note")
            note.setValue(.string(title), forKey: "title")
            note.setValue(.string("body of \(title)"), forKey: "body")
            note.setValue(.integer(Int64(index)), forKey: "displayIndex")
            note.setValue(.date(Date(timeIntervalSinceReferenceDate: Double(index))), forKey: "dateCreated")
            identify(note, model: model)
            if index == 0 {
                let image = try context.insertObject(entityName: "ImageAttachment")
                image.setValue(.data(TestImages.encoded(width: 4, height: 3, format: "png")), forKey: "image")
                image.setValue(.string("a caption"), forKey: "caption")
                image.setValue(.date(Date(timeIntervalSinceReferenceDate: 5)), forKey: "dateCreated")
                identify(image, model: model)
                image.setObject(note, forKey: "note")
            }
        }
        try context.save()
        try store.close()
        return (url, model)
    }

    /// From v5 notes and attachments need an identifier, as the app gives them.
    private static func identify(_ object: ManagedObject, model: ManagedObjectModel) {
        if model.allAttributes(of: object.objectID.entityName).contains(where: { $0.name == "identifier" }) {
            object.setValue(.uuid(UUID()), forKey: "identifier")
        }
    }
}
