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

/// Runs this program again as a child to measure one step: wall time and the child's peak
/// resident memory, as the operating system counted it.
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
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw BenchError("the step \(arguments.joined(separator: " ")) failed (status \(status))")
        }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard let seconds = printed.split(separator: "\n").first(where: { $0.hasPrefix("elapsed=") }).flatMap({ Double($0.dropFirst(8)) }) else {
            throw BenchError("the step printed no time")
        }
        return Measurement(seconds: seconds, peakMemoryBytes: Int64(usage.ru_maxrss) * 1024)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
