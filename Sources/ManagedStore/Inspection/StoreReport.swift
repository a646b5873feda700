import Foundation

/// What `store info` tells about a store: its files, which model version wrote it, how many
/// objects of each entity it holds, and whether (and how) it must be migrated. Codable for `--json`.
public struct StoreReport: Codable, Sendable {
    /// One file of the store's set (main file, `-wal`, search index, backups).
    public struct File: Codable, Sendable {
        /// The file's name, beside the store.
        public var name: String
        /// What the file is: "store", "search index", "backup of the store at v1", ….
        public var role: String
        /// The file's size.
        public var bytes: Int64
    }

    /// One step of the migration the store needs.
    public struct Step: Codable, Sendable {
        /// The version the step starts from.
        public var from: String
        /// The version the step reaches.
        public var to: String
        /// How it migrates (`MigrationStep.kindDescription`).
        public var kind: String
    }

    /// What the store is to this program, as `StoreMigrator.State` decides.
    public enum State: String, Codable, Sendable {
        /// As `StoreMigrator.State`, in the words `store info` prints.
        case missing, current, needsMigration = "needs migration", cannotMigrate = "cannot migrate", newer, unknown
    }

    /// The store's path as given.
    public var path: String
    /// The files that make up the store.
    public var files: [File]
    /// Whether the store is there, current, needs migrating, or cannot be opened.
    public var state: State
    /// The model version that wrote the store, nil when unknown or missing.
    public var version: String?
    /// The version's label in file names (`v1`), nil when the version is unknown.
    public var versionLabel: String?
    /// The version this program runs as.
    public var targetVersion: String
    /// The store's entity hashes (hex), shown when they match no known version.
    public var storeHashes: [String: String]?
    /// For such a store: the closest version, and which entities differ from it and how.
    public var closestVersion: ClosestVersion?
    /// Entity -> number of objects, for a store this program can read.
    public var entityCounts: [String: Int]?
    /// Attributes that keep large values in files, and the folder holding them.
    public var externalStorage: ExternalStorageReport?
    /// The migration steps to the target, for a store that needs migrating.
    public var plan: [Step]?
    /// Why the store cannot be migrated to the target (no plan, or custom policies this program
    /// lacks): information, since the store can still be read.
    public var refusal: String?

    /// Inspects the store without changing it (metadata and a read-only connection only).
    public init(migrator: StoreMigrator) throws {
        let url = migrator.storeURL
        path = url.path
        // A file that went away meanwhile is simply not listed.
        files = StoreSideFiles(migrator: migrator).existing.compactMap { file in
            guard let size = (try? FileManager.default.attributesOfItem(atPath: file.url.path))?[.size] as? NSNumber else { return nil }
            return File(name: file.url.lastPathComponent, role: file.role, bytes: size.int64Value)
        }
        targetVersion = migrator.target.name
        var detected: ManagedObjectModel?
        switch try migrator.state() {
        case .missing:
            state = .missing
        case .current(let version):
            state = .current
            detected = version
        case .needsMigration(let plan):
            state = .needsMigration
            detected = plan.source
            self.plan = plan.steps.map { Step(from: $0.source.name, to: $0.destination.name, kind: $0.kindDescription) }
            let missing = migrator.missingPolicies(in: plan)
            if !missing.isEmpty {
                refusal = "this program lacks the custom migration polic\(missing.count == 1 ? "y" : "ies") \(missing.joined(separator: ", "))"
            }
        case .cannotMigrate(let version, let error):
            state = .cannotMigrate
            detected = version
            refusal = ErrorText.oneLine(error.description)
        case .newer(let version):
            state = .newer
            detected = version
        case .unknown(let metadata):
            state = .unknown
            storeHashes = metadata.versionHashes.mapValues(\.hexString)
            // A cache that cannot be read only leaves the per-property details out.
            closestVersion = ClosestVersion(store: metadata, model: migrator.model,
                                            cachedModel: (try? StoreModelCache.read(storeAt: url)) ?? nil)
        }
        if let detected {
            version = detected.name
            versionLabel = migrator.label(of: detected)
            entityCounts = try Self.count(url, version: detected, options: migrator.options)
            externalStorage = try ExternalStorageReport(store: url, version: detected)
        }
    }

    private static func count(_ url: URL, version: ManagedObjectModel, options: StoreOptions) throws -> [String: Int] {
        var options = options
        options.isReadOnly = true
        let store = try PersistentStore.open(at: url, model: version, options: options)
        // Closing a read-only connection cannot lose anything; the answer is already read.
        defer { try? store.close() }
        let context = ManagedObjectContext(store: store)
        var counts: [String: Int] = [:]
        for entity in version.entities where !entity.isAbstract {
            counts[entity.name] = try context.count(FetchRequest(entityName: entity.name, includesSubentities: false))
        }
        return counts
    }

    /// The report as text, one fact per line.
    public var text: String {
        var lines = ["store: \(path)"]
        lines.append("files:" + (files.isEmpty ? " none" : ""))
        lines += files.map { "  \($0.name) (\($0.role), \($0.bytes) bytes)" }
        switch state {
        case .missing: lines.append("version: none (no store yet; it will be created at \(targetVersion))")
        case .unknown: lines.append("version: unknown (its hashes match no version of the model)")
        default: lines.append("version: \(version ?? "?") (\(versionLabel ?? "?"))")
        }
        if let storeHashes {
            lines += storeHashes.sorted { $0.key < $1.key }.map { "  hash \($0.key) \($0.value)" }
        }
        if let closestVersion { lines += closestVersion.lines }
        if let entityCounts {
            lines.append("objects: " + entityCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if let externalStorage { lines.append(externalStorage.text) }
        switch state {
        case .current: lines.append("migration: not needed (\(targetVersion) is the version in use)")
        case .newer: lines.append("migration: refused: the store is newer than \(targetVersion)")
        case .needsMigration:
            lines.append("migration: needed, \((plan?.count ?? 0) == 1 ? "1 step" : "\(plan?.count ?? 0) steps") to \(targetVersion)")
            for (index, step) in (plan ?? []).enumerated() {
                lines.append("  \(index + 1). \(step.from) -> \(step.to): \(step.kind)")
            }
            if let refusal { lines.append("migration: would be refused: \(refusal)") }
        case .cannotMigrate:
            lines.append("migration: not possible to \(targetVersion): \(refusal ?? "no plan")")
        case .missing, .unknown: break
        }
        return lines.joined(separator: "\n")
    }
}
