import Foundation
import ManagedStore
import UnCloudNotesKit

/// One engine step, as the self-migrating stack runs it (without the backup copy): in place when
/// inferred, or through the migration manager into a new file renamed over the store.
enum EngineStep {
    /// - Returns: the seconds the step took, after the models were loaded and the step planned.
    static func run(from number: Int, storeAt url: URL) throws -> Double {
        let model = try UnCloudNotesModel.load()
        let mappings = try UnCloudNotesModel.loadMappingModels(for: model)
        UnCloudNotesEntities.registerValueTransformers()
        let plan = try MigrationPlanner.plan(from: model.versions[number - 1], to: model.versions[number], in: model, mappingModels: mappings)
        let start = DispatchTime.now()
        let options = StoreOptions(sqlLogger: nil)
        for step in plan.steps {
            switch step.kind {
            case .inPlace(let inferred):
                try InPlaceMigration.migrate(storeAt: url, from: step.source, to: step.destination, inferred: inferred, options: options)
            case .inferredCopy(let inferred, _):
                try copy(step, inferred.mappingModel, url, options)
            case .mappingModel(let mapping):
                try copy(step, mapping, url, options)
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    private static func copy(_ step: MigrationStep, _ mapping: MappingModel, _ url: URL, _ options: StoreOptions) throws {
        let destination = URL(fileURLWithPath: url.path + ".migrating")
        try MigrationManager.migrateStore(from: url, sourceModel: step.source, to: destination, destinationModel: step.destination,
                                          mappingModel: mapping, policies: UnCloudNotesModel.migrationPolicies, options: options)
        guard rename(destination.path, url.path) == 0 else { throw BenchError("cannot rename the migrated store over \(url.path)") }
    }
}

/// Runs this program again as a child to measure one step: the step's time and the child's peak
/// resident memory, both reported by the child (see `PeakMemory`).
enum ChildProcess {
    struct Measurement {
        /// As the child measured it: the step alone, without starting the process.
        var seconds: Double
        var peakMemoryBytes: Int64
    }

    static func measure(_ arguments: [String]) throws -> Measurement {
        let executable = CommandLine.arguments[0]
        let argv = [executable] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bench-step-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var pid: pid_t = 0
        guard posix_spawn(&pid, executable, &actions, nil, cArguments, environ) == 0 else {
            throw BenchError("cannot start \(executable)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw BenchError("the step \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        func value(_ key: String) -> Substring? {
            printed.split(separator: "\n").first { $0.hasPrefix(key + "=") }?.dropFirst(key.count + 1)
        }
        guard let seconds = value("elapsed").flatMap({ Double($0) }), let peak = value("peak").flatMap({ Int64($0) }), peak > 0 else {
            throw BenchError("the step printed no time or memory")
        }
        return Measurement(seconds: seconds, peakMemoryBytes: peak)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
