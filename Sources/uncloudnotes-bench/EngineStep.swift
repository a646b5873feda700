import Foundation
import ManagedStore
import UnCloudNotesKit

/// The engine's side of a migration, run in a child process so its memory and writes are its own.
enum EngineMigration {
    /// As the self-migrating stack runs it: `StoreMigrator.migrateIfNeeded`, with its lock,
    /// working copy, backup and synced renames, which is what a user waits for.
    static func migrate(storeAt url: URL, to version: Int) throws {
        let model = try UnCloudNotesModel.load()
        let mappings = try UnCloudNotesModel.loadMappingModels(for: model)
        let migrator = StoreMigrator(storeURL: url, model: model, target: model.versions[version - 1], mappingModels: mappings,
                                     policies: UnCloudNotesModel.migrationPolicies, options: StoreOptions())
        var backup: FileDuplication?
        try ChildProcess.printReport(measuring: {
            let migrated = try migrator.migrateIfNeeded { event in
                if case .backupCreated(_, let method) = event { backup = method }
            }
            guard migrated != nil else { throw BenchError("\(url.path) needed no migration to v\(version)") }
        }, backup: { backup })
    }

    /// One in-place step alone, without the stack's lock, working copy or backup: what the
    /// "v1 -> v2 in place constant in N" target is judged on.
    static func inPlaceStepAlone(storeAt url: URL, from number: Int) throws {
        let model = try UnCloudNotesModel.load()
        let mappings = try UnCloudNotesModel.loadMappingModels(for: model)
        let plan = try MigrationPlanner.plan(from: model.versions[number - 1], to: model.versions[number], in: model, mappingModels: mappings)
        try ChildProcess.printReport {
            for step in plan.steps {
                guard case .inPlace(let inferred) = step.kind else { throw BenchError("v\(number) -> v\(number + 1) is not an in-place step") }
                try InPlaceMigration.migrate(storeAt: url, from: step.source, to: step.destination, inferred: inferred,
                                             options: StoreOptions())
            }
        }
    }
}
