import Foundation
import ManagedStore

/// Opening the app's stores, whichever of the app's model versions wrote them.
public enum UnCloudNotesStore {
    /// Which of the model's versions wrote the store, from its metadata alone; nil when none did.
    public static func detectVersion(of metadata: StoreMetadata, in model: VersionedModel) -> ManagedObjectModel? {
        model.versions.first { metadata.isCompatible(with: $0) }
    }

    /// Opens a store of any of the app's versions read-only, for inspection: its objects are
    /// untyped, since only the current version has Swift classes.
    public static func openForInspection(at url: URL, model: VersionedModel) throws -> ManagedObjectContext {
        let metadata = try StoreMetadata.read(storeAt: url)
        guard let version = detectVersion(of: metadata, in: model) else {
            throw StoreError(path: url.path, reason: "the store's model version hashes match no known version of "
                + "\(model.name) (written by a newer version of UnCloudNotes?)")
        }
        UnCloudNotesEntities.registerValueTransformers()
        return ManagedObjectContext(store: try PersistentStore.open(at: url, model: version,
                                                                    options: StoreOptions(isReadOnly: true)))
    }

    /// Creates a new, empty store of the current version, with contexts that hand out `Note`s.
    public static func createCurrent(at url: URL, model: VersionedModel) throws -> ManagedObjectContext {
        UnCloudNotesEntities.registerValueTransformers()
        return ManagedObjectContext(store: try PersistentStore.create(at: url, model: model.current),
                                    entityClasses: UnCloudNotesEntities.currentVersionClasses)
    }
}
