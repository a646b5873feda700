import Foundation

/// One real migration run by a check, of a generated store or a copy of a given one, and what
/// was found in the result.
public struct TrialMigration: Sendable, Encodable {
    /// How it ended.
    public enum Outcome: String, Sendable, Encodable {
        /// Migrated, and everything checked held.
        case passed
        /// The migration failed, or the result lost or broke something.
        case failed
        /// Not run: the store needs no migration, or no route exists (reported as a finding already).
        case skipped
    }

    /// The policies a trial can run, and which others are the app's own code (acknowledged, so
    /// a route through them is skipped as such).
    struct Policies {
        /// The policy classes this program has.
        var registry: MigrationPolicyRegistry
        /// Whether a class this program lacks is acknowledged as the app's code.
        var isAppPolicy: (String) -> Bool
    }

    /// "generated v2", or the given store's file name.
    public var name: String
    /// The version the store was at, when known.
    public var source: String?
    /// The short name of that version, which names the route it took.
    public var label: String?
    /// How it ended.
    public var outcome: Outcome
    /// Objects in the store before the migration.
    public var objectsBefore: Int
    /// Objects in the store after it.
    public var objectsAfter: Int
    /// What went wrong, or why it was skipped.
    public var problems: [String]
    /// How many facts (object counts, lists of attribute values, link counts) the mappings carry
    /// unchanged, each checked in the migrated store.
    public var checks: Int = 0
    /// What the trial left out, and why.
    public var notes: [String] = []
    /// Wall time of the migration and its checks, in seconds.
    public var seconds: Double

    /// Migrates the store at `url` (a scratch copy: it is changed) to the model's current version
    /// the way the self-migrating stack does, and checks the result against what the store held:
    /// counts per entity, values and links the mappings carry, required values, uniqueness
    /// constraints, integer values within their types, and SQLite's `integrity_check`. In a
    /// generated store (`isGenerated`), integers beyond a narrowed type are the generator's edge
    /// values, which the narrowing's warning covers: a note, not a failure.
    static func run(named name: String, storeAt url: URL, chain: MigrationChain, mappingModels: [MappingModel],
                    policies: Policies, isGenerated: Bool = false) -> TrialMigration {
        let start = ContinuousClock.now
        var trial = migrate(named: name, storeAt: url, chain: chain, mappingModels: mappingModels, policies: policies,
                            isGenerated: isGenerated)
        trial.seconds = (ContinuousClock.now - start).inSeconds
        return trial
    }

    private static func migrate(named name: String, storeAt url: URL, chain: MigrationChain, mappingModels: [MappingModel],
                                policies appPolicies: Policies, isGenerated: Bool) -> TrialMigration {
        var trial = TrialMigration(name: name, source: nil, label: nil, outcome: .failed, objectsBefore: 0, objectsAfter: 0,
                                   problems: [], seconds: 0)
        let policies = appPolicies.registry
        let migrator = StoreMigrator(storeURL: url, model: chain.model, mappingModels: mappingModels, policies: policies)
        let plan: MigrationPlan
        do {
            switch try migrator.state() {
            case .missing: return trial.failing("no store file")
            case .unknown: return trial.failing("its version hashes match no version of \(chain.model.name)")
            case .newer(let version): return trial.failing("written by \(version.name), newer than the current version")
            case .current(let version):
                trial.source = version.name
                trial.label = chain.label(version)
                trial.outcome = .skipped
                trial.problems = ["already at the current version: nothing to migrate"]
                return trial
            case .cannotMigrate(let version, let error):
                trial.source = version.name
                trial.label = chain.label(version)
                return trial.failing(error.description)
            case .needsMigration(let planned): plan = planned
            }
        } catch {
            return trial.failing("cannot read the store: \(ErrorText.oneLine(error))")
        }
        trial.source = plan.source.name
        trial.label = chain.label(plan.source)
        let missing = migrator.missingPolicies(in: plan)
        guard missing.isEmpty else {
            let plural = missing.count == 1 ? "y" : "ies"
            trial.outcome = .skipped
            trial.problems = [missing.allSatisfy(appPolicies.isAppPolicy)
                ? "polic\(plural) \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") the app's code, "
                    + "which this program cannot run"
                : "not run: the route needs the custom migration polic\(plural) \(missing.joined(separator: ", ")), "
                    + "which this program does not have"]
            return trial
        }
        do {
            let before = try StoreContents.read(storeAt: url, model: plan.source)
            trial.objectsBefore = before.entities.values.reduce(0) { $0 + $1.count }
            let expected = plan.steps.reduce(ExpectedContents(before)) { $0.after($1, policies: policies) }
            trial.checks = expected.checkCount
            do {
                try migrator.migrateIfNeeded()
            } catch {
                return trial.failing("the migration failed: \(ErrorText.oneLine(error))")
            }
            let after = try StoreContents.read(storeAt: url, model: chain.model.current)
            trial.objectsAfter = after.entities.values.reduce(0) { $0 + $1.count }
            trial.problems = expected.differences(from: after) + after.problems
            if isGenerated {
                trial.notes += after.valuesOutsideTheirTypes.map { "\($0) (generated edge values; see the narrowing's warning)" }
            } else {
                trial.problems += after.valuesOutsideTheirTypes
            }
            let integrity = try StoreContents.integrityCheck(storeAt: url)
            if integrity != "ok" { trial.problems.append("integrity_check: \(integrity)") }
        } catch {
            trial.problems.append("cannot read the store: \(ErrorText.oneLine(error))")
        }
        trial.outcome = trial.problems.isEmpty ? .passed : .failed
        return trial
    }

    private func failing(_ problem: String) -> TrialMigration {
        var copy = self
        copy.outcome = .failed
        copy.problems.append(problem)
        return copy
    }

    /// Copies a store with its `-wal`, `-shm` and external-data folder into `folder`, reading
    /// the original only (SQLite never opens it).
    static func copyStore(_ original: URL, into folder: URL) throws -> URL {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(original.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where suffix.isEmpty || manager.fileExists(atPath: original.path + suffix) {
            try manager.copyItem(atPath: original.path + suffix, toPath: copy.path + suffix)
        }
        let support = ExternalDataFolder(storeAt: original).supportFolder
        if manager.fileExists(atPath: support.path) {
            try manager.copyItem(at: support, to: ExternalDataFolder(storeAt: copy).supportFolder)
        }
        // Copies keep the originals' modes: read-only fixtures would give read-only copies,
        // which the migration refuses. The copies are private and writable.
        try makePrivateAndWritable(folder)
        return copy
    }

    private static func makePrivateAndWritable(_ folder: URL) throws {
        let manager = FileManager.default
        try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
        guard let items = manager.enumerator(atPath: folder.path) else { return }
        for case let item as String in items {
            let path = folder.appendingPathComponent(item).path
            var isFolder: ObjCBool = false
            manager.fileExists(atPath: path, isDirectory: &isFolder)
            try manager.setAttributes([.posixPermissions: isFolder.boolValue ? 0o700 : 0o600], ofItemAtPath: path)
        }
    }
}
