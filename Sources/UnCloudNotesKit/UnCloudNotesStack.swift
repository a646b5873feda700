import Foundation
import ManagedStore

/// The app's self-migrating stack (the chapter's `DataMigrationManager`, made general): opens the
/// notes store at the version the app runs as, creating it when missing and upgrading it step by
/// step when an older version wrote it.
public struct UnCloudNotesStack {
    public let model: VersionedModel
    public let mappingModels: [MappingModel]
    /// The version the app runs as: the current one, or the one `--model-version` pins.
    public let version: ManagedObjectModel
    public let storeURL: URL

    public init(storeURL: URL, versionName: String? = nil) throws {
        let model = try UnCloudNotesModel.load()
        self.model = model
        self.mappingModels = try UnCloudNotesModel.loadMappingModels(for: model)
        self.storeURL = storeURL
        if let versionName {
            guard let version = UnCloudNotesModel.version(named: versionName, in: model) else {
                throw MigrationError("unknown model version \"\(versionName)\": use v1 to v\(model.versions.count) or a version name of \(model.name)")
            }
            self.version = version
        } else {
            self.version = model.current
        }
        UnCloudNotesEntities.registerValueTransformers()
    }

    /// The migrator for this store and version.
    public var migrator: StoreMigrator {
        StoreMigrator(storeURL: storeURL, model: model, target: version, mappingModels: mappingModels,
                      policies: UnCloudNotesModel.migrationPolicies)
    }

    /// The short name of the version the app runs as (`v1` … `v4`).
    public var versionLabel: String { migrator.label(of: version) }

    /// Opens the store, creating it (and its folder) when missing and migrating it when older.
    /// Objects are `Note`s when the app runs as the current version, untyped otherwise.
    public func open(observer: @escaping (MigrationEvent) -> Void = { _ in },
                     cancellation: MigrationCancellation? = nil) throws -> ManagedObjectContext {
        try FileManager.default.createDirectory(at: storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try migrator.migrateIfNeeded(observer: observer, cancellation: cancellation)
        let classes = version.name == model.currentVersionName ? UnCloudNotesEntities.currentVersionClasses : [:]
        return ManagedObjectContext(store: try PersistentStore.openOrCreate(at: storeURL, model: version), entityClasses: classes)
    }
}

extension UnCloudNotesModel {
    /// A version by short name (`v1` … `v4`) or full name (`UnCloudNotesDataModel v2`).
    public static func version(named name: String, in model: VersionedModel) -> ManagedObjectModel? {
        if let version = model.version(named: name) { return version }
        let lowered = name.lowercased()
        guard lowered.hasPrefix("v"), let number = Int(lowered.dropFirst()), number >= 1, number <= model.versions.count else {
            return nil
        }
        return model.versions[number - 1]
    }
}
