import Foundation
import ManagedStore
import UnCloudNotesKit

/// The stores each measured run starts from, made once per size (untimed) and synced: a v1 store,
/// and for each image kind the same notes at v2 (images added), v3 and v4, each migrated from the
/// one before by the engine. Runs work on synced copies; these are only read.
struct StoreMasters {
    let folder: URL
    let notes: Int

    /// The master at `version` (1 for the v1 store, which has no images).
    func url(version: Int, images: ImageKind?) -> URL {
        folder.appendingPathComponent("master-\(notes)-v\(version)-\(images?.rawValue ?? "none").sqlite")
    }

    static func make(in folder: URL, notes: Int, kinds: [ImageKind], model: VersionedModel,
                     log: (String) -> Void) throws -> StoreMasters {
        let masters = StoreMasters(folder: folder, notes: notes)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        log("\(notes) notes: generating the v1 store")
        try StoreGenerator.makeV1Store(at: masters.url(version: 1, images: nil), notes: notes, model: model)
        try DiskSync.sync(masters.url(version: 1, images: nil))
        for kind in kinds {
            for version in 2...model.currentNumber {
                log("\(notes) notes, \(kind.rawValue) images: making the v\(version) store")
                let source = masters.url(version: version - 1, images: version == 2 ? nil : kind)
                let destination = masters.url(version: version, images: kind)
                try makeStore(at: destination, version: version, from: source, images: kind, model: model)
            }
        }
        return masters
    }

    /// Removes every file made beside the masters (backups, lock files) after the run.
    func remove() {
        // Best effort: the folder is temporary.
        try? FileManager.default.removeItem(at: folder)
    }

    /// A synced copy of the store one version before, migrated by the engine to `version`; at v2
    /// every tenth note gets an image of the kind.
    static func makeStore(at destination: URL, version: Int, from source: URL, images kind: ImageKind,
                          model: VersionedModel) throws {
        try DiskSync.syncedCopy(of: source, at: destination)
        try migrate(destination, to: version, model: model)
        if version == 2 { try StoreGenerator.addImages(toV2StoreAt: destination, kind: kind) }
        try DiskSync.sync(destination)
    }

    private static func migrate(_ url: URL, to version: Int, model: VersionedModel) throws {
        let migrator = StoreMigrator(storeURL: url, model: model, target: model.versions[version - 1],
                                     mappingModels: try UnCloudNotesModel.loadMappingModels(for: model),
                                     policies: UnCloudNotesModel.migrationPolicies, options: StoreOptions())
        try migrator.migrateIfNeeded()
        // A master needs no backup; there may be none to remove.
        try? FileManager.default.removeItem(at: migrator.backupURL(for: model.versions[version - 2]))
    }
}

extension VersionedModel {
    /// The app's current version's number (v5 is 5): the chains measured end there, not at a
    /// version the app does not run as yet.
    var currentNumber: Int {
        (versions.firstIndex { $0.name == current.name } ?? versions.count - 1) + 1
    }
}
