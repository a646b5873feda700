import Foundation
import ManagedStore

/// The app's self-migrating stack (the chapter's `DataMigrationManager`, made general): opens the
/// notes store at the version the app runs as, creating it when missing and upgrading it step by
/// step when an older version wrote it.
public struct UnCloudNotesStack {
    /// The app's versioned model, read from the resource bundle.
    public let model: VersionedModel
    /// The mapping models the app ships (v2 -> v3, v3 -> v4, …).
    public let mappingModels: [MappingModel]
    /// The version the app runs as: the current one, or the one `--model-version` pins.
    public let version: ManagedObjectModel
    /// The store file.
    public let storeURL: URL
    /// How the store is opened and migrated (the SQL log among them), passed as a value.
    public let options: StoreOptions
    /// The migrator for this store and version: one per stack, so what its check read and
    /// planned serves the migration and the open that follow.
    public let migrator: StoreMigrator

    /// A stack for the store at `storeURL`, at the current version or the one `versionName` names;
    /// throws for an unknown name. Nothing is opened until `open`.
    public init(storeURL: URL, versionName: String? = nil, options: StoreOptions = StoreOptions()) throws {
        let model = try UnCloudNotesModel.load()
        self.model = model
        self.mappingModels = try UnCloudNotesModel.loadMappingModels(for: model)
        self.storeURL = storeURL
        self.options = options
        let version = try versionName.map { try UnCloudNotesModel.resolveVersion(named: $0, in: model) } ?? model.current
        self.version = version
        self.migrator = UnCloudNotesModel.migrator(for: storeURL, model: model, target: version, mappingModels: mappingModels,
                                                   options: options)
    }

    /// The name and author the app's saves carry in the store's persistent history.
    public static let contextName = "notes"
    /// The author recorded with each of the app's saves, so history readers can tell its changes apart.
    public static let transactionAuthor = "uncloudnotes"

    /// The short name of the version the app runs as (`v1` … `v5`).
    public var versionLabel: String { model.label(of: version) }

    /// Whether the store is only read: asked so (`StoreOptions.isReadOnly`), or the user cannot
    /// write it or its folder.
    public var isReadOnly: Bool { options.isReadOnly || (storeExists && !StorePath.isWritable(storeURL)) }

    /// The older version a read-only store is read as, because upgrading it would write it;
    /// nil when the store opens at `version` (upgraded first when it needs it, and can be).
    public func versionReadWithoutUpgrade() throws -> ManagedObjectModel? {
        guard isReadOnly, case .needsMigration(let plan) = try migrator.state() else { return nil }
        return plan.source
    }

    /// Whether the store file exists yet (a first note creates it).
    public var storeExists: Bool { FileManager.default.fileExists(atPath: storeURL.path) }

    /// Opens the store's note book, migrating the store first when older; a store that cannot be
    /// written opens read-only. A missing store is created (its folders 0700) only when
    /// `creatingIfMissing`: commands that only read must not turn a mistyped path into folders
    /// and an empty store. A new store gets its empty search index at once, kept up to date by
    /// every save; a migration carries the index to the new store when it kept the notes' keys,
    /// titles, bodies and dates (every step of the app's chain does) and otherwise builds it as
    /// its last stage (issue #38), so the first search after an upgrade answers at once. Only a
    /// store that needs no migration and has no index (deleted, or made by another program)
    /// leaves it to the first search, which builds it in the background while searches scan.
    public func open(creatingIfMissing: Bool = true, observer: @escaping (MigrationEvent) -> Void = { _ in },
                     cancellation: MigrationCancellation? = nil) throws -> NoteBook {
        let creating = !storeExists
        if creating {
            guard creatingIfMissing else {
                throw StoreLocationError.noSuchStore(path: storeURL.path)
            }
            try StoreLocation.createPrivateFolders(for: storeURL)
        }
        // A store the user cannot write (or in a read-only folder) can still be read; one of an
        // older version is read as that version, since upgrading it would write it.
        var options = self.options
        options.isReadOnly = isReadOnly
        var version = self.version
        if let older = try versionReadWithoutUpgrade() {
            version = older
            observer(.warning("the store is read-only, so it is read as \(model.label(of: version)) and not upgraded; "
                + "make it writable (chmod u+w, and its folder) to upgrade it"))
        } else {
            try migrator.migrateIfNeeded(observer: observer, cancellation: cancellation)
        }
        // Every save is recorded in the store's persistent history (a store migrated from an
        // older version gets its history tables now), as Core Data records it.
        options.recordsPersistentHistory = true
        let store = try PersistentStore.openOrCreate(at: storeURL, model: version, options: options,
                                                     knownMetadata: migrator.metadataReading)
        let context = ManagedObjectContext(store: store, valueTransformers: UnCloudNotesModel.valueTransformers)
        context.name = Self.contextName
        context.transactionAuthor = Self.transactionAuthor
        let book = NoteBook(context: context, version: model.label(of: version))
        // Stores written before tag names were normalised may hold one tag under two spellings.
        if !options.isReadOnly { try book.mergeTagSpellings() }
        // A new store starts with its (empty) search index, which every save then keeps up to date.
        // The index is only a faster path: a store it cannot be made beside still opens (the
        // first search then tries again, and scans meanwhile).
        if creating, !options.isReadOnly { try? book.prepareSearchIndex() }
        return book
    }
}

extension UnCloudNotesModel {
    /// A version by short name (`v1` … `v5`) or full name (`UnCloudNotesDataModel v2`).
    public static func version(named name: String, in model: VersionedModel) -> ManagedObjectModel? {
        if let version = model.version(named: name) { return version }
        let lowered = name.lowercased()
        guard lowered.hasPrefix("v"), let number = Int(lowered.dropFirst()), number >= 1, number <= model.versions.count else {
            return nil
        }
        return model.versions[number - 1]
    }

    /// The one place a migrator is assembled, for the app's store and for a store of any model
    /// given on the command line: the app's migration policies, and the target the caller chose.
    /// A store of the app's own model gets its search index built as the migration's last stage
    /// (issue #38), so the first search after an upgrade answers at once; another model's none.
    public static func migrator(for storeURL: URL, model: VersionedModel, target: ManagedObjectModel,
                                mappingModels: [MappingModel], options: StoreOptions = StoreOptions()) -> StoreMigrator {
        let isTheAppsModel = model.name == (resourceName as NSString).deletingPathExtension
        return StoreMigrator(storeURL: storeURL, model: model, target: target, mappingModels: mappingModels, policies: migrationPolicies,
                             options: options, textIndex: isTheAppsModel ? NoteSearchIndex.configuration : nil)
    }

    /// A version by short or full name, or an error listing the choices.
    public static func resolveVersion(named name: String, in model: VersionedModel) throws -> ManagedObjectModel {
        guard let version = version(named: name, in: model) else {
            throw MigrationError.unknownVersionName(name, model: model.name, versions: model.versions.map(\.name))
        }
        return version
    }
}
