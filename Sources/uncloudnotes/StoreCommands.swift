import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Inspect, upgrade and export stores (the app's, or any Core Data store with --model).",
        discussion: """
            Examples:
              uncloudnotes store info
              uncloudnotes store migrate old.sqlite --dry-run
              uncloudnotes store export old.sqlite --json
            """,
        subcommands: [StoreInfoCommand.self, StoreMigrateCommand.self, StoreExportCommand.self, StoreDiffCommand.self, StoreHistoryCommand.self])
}

/// Options of the store commands that work on any Core Data model and store.
struct StoreSelection: ParsableArguments {
    @Argument(help: ArgumentHelp("The store file. Default: --store, or the app's default store.", valueName: "store"))
    var path: String?

    @Option(help: ArgumentHelp("""
        The model to use instead of the app's: an Xcode .xcdatamodeld (or .xcdatamodel), or a compiled .momd (or \
        .mom). Without it, a store the app's model does not describe is read with the model Core Data cached \
        inside it (Z_MODELCACHE), when it has one.
        """, valueName: "path"))
    var model: String?

    @Option(help: ArgumentHelp("A folder of .xcmappingmodel files to use too.", valueName: "folder"))
    var mappings: String?

    /// The migrator for the selected store, the only place one is assembled: the model (the app's,
    /// or `--model`), its mapping models (the app's, plus `--mappings`), and the target version
    /// (`--to`, else `--model-version`, else the model's current one), whichever model is used.
    func migrator(_ global: GlobalOptions, to version: String? = nil) throws -> StoreMigrator {
        let model: VersionedModel
        var mappingModels: [MappingModel] = []
        var reading: StoreMetadataReading?
        if let modelPath = self.model {
            model = try ModelFileReader.read(at: fileURL(modelPath))
        } else {
            let app = try UnCloudNotesModel.load()
            let url = global.storeURL(path)
            reading = try StorePath.check(url) ? try StoreMetadataReading.read(storeAt: url) : nil
            if let reading, let cached = try Self.cachedModel(ofForeignStoreAt: url, metadata: reading.metadata, app: app) {
                model = cached
            } else {
                model = app
                mappingModels = try UnCloudNotesModel.loadMappingModels(for: app)
            }
        }
        if let mappings {
            mappingModels += try MappingModelReader.readAll(in: fileURL(mappings), models: model)
        }
        let target = try (version ?? global.modelVersion).map { try UnCloudNotesModel.resolveVersion(named: $0, in: model) } ?? model.current
        UnCloudNotesModel.registerValueTransformers()
        let migrator = UnCloudNotesModel.migrator(for: global.storeURL(path), model: model, target: target, mappingModels: mappingModels,
                                                  options: global.storeOptions)
        // The metadata just read decide the migrator's first check too: a command reads them once.
        if let reading { migrator.use(reading) }
        return migrator
    }

    /// Opens the selected store read-only at the version that wrote it, whichever that is.
    func openReadOnly(_ global: GlobalOptions) throws -> PersistentStore {
        let migrator = try migrator(global)
        let version: ManagedObjectModel
        switch try migrator.state() {
        case .missing: throw CommandFailure("\(migrator.storeURL.path): no such store: check the path")
        case .unknown: throw CommandFailure("\(migrator.storeURL.path): the store's hashes match no known version of \(migrator.model.name): pass the model that wrote it with --model")
        case .current(let found), .newer(let found), .cannotMigrate(let found, _): version = found
        case .needsMigration(let plan): version = plan.source
        }
        var options = migrator.options
        options.isReadOnly = true
        return try PersistentStore.open(at: migrator.storeURL, model: version, options: options)
    }

    /// The model Core Data cached inside a store that no version of the app's model describes
    /// (nil for the app's own stores and stores without a cache), after checking its hashes
    /// against the store's metadata. Says on stderr that it is used.
    private static func cachedModel(ofForeignStoreAt url: URL, metadata: StoreMetadata, app: VersionedModel) throws -> VersionedModel? {
        guard !app.versions.contains(where: metadata.isCompatible(with:)),
              let cached = try StoreModelCache.read(storeAt: url) else { return nil }
        let notice = "uncloudnotes: \(url.path) is not a store of the app's model; reading it with the model "
            + "Core Data cached inside it (Z_MODELCACHE, version \(cached.name))"
        StandardError.line(TerminalText.field(notice))
        return try VersionedModel(name: cached.name, versions: [cached], currentVersionName: cached.name,
                                  sourceName: "\(url.path) (Z_MODELCACHE)")
    }
}

struct StoreInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a store's files, model version, object counts and whether it needs migrating.",
        discussion: """
            Reads only the store's metadata and, read-only, its rows: the store is never changed.

            Examples:
              uncloudnotes store info
              uncloudnotes store info old-notes.sqlite --json
              uncloudnotes store info App.sqlite --model App.xcdatamodeld \\
                  --mappings Mappings/
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: StoreSelection
    @OptionGroup var format: OutputFormat

    func run() throws {
        let report = try StoreReport(migrator: selection.migrator(global))
        if format.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try StandardOutput.line(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            try StandardOutput.line(report.text)
        }
    }
}

struct StoreMigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Upgrade a store to a model version, step by step, keeping a backup.",
        discussion: """
            Plans the steps from the store's version to the target (inferred steps run in place \
            with SQL; others use a mapping model), copies the store to <store>.<version>-backup, \
            then runs them. A failed or interrupted migration leaves the store as it was. Ctrl-C asks whether \
            to cancel (at once without a terminal on stdin); a cancelled migration leaves the \
            store unchanged and exits with status 130.

            Examples:
              uncloudnotes store migrate                      upgrade the app's store to v5
              uncloudnotes store migrate old.sqlite --to v3   only as far as v3
              uncloudnotes store migrate old.sqlite --dry-run
              uncloudnotes store migrate old.sqlite --dry-run --explain
                  the passes as they will run, and the SQL of each, parameters shown
              uncloudnotes store migrate old.sqlite --keep-steps steps/
                  one step at a time, keeping the store as each step left it
              uncloudnotes store migrate App.sqlite --model App.xcdatamodeld \\
                  --mappings Mappings/
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: StoreSelection
    @Option(help: ArgumentHelp("The version to reach (a version name, or v1…v5). Default: the current one (v5).", valueName: "version"))
    var to: String?
    @Flag(help: "Only print the plan.") var dryRun = false
    @Flag(help: ArgumentHelp("""
        With --dry-run: the plan as it will run (which steps fuse into one pass, which run in place, \
        which backup is made) and each pass's SQL, in order, with its parameters. The migration is \
        run on a scratch copy in the temporary folder to record it; the store is only read.
        """))
    var explain = false
    @Option(help: ArgumentHelp("""
        Run the steps one at a time, as Core Data's classic progressive migration does (no steps \
        fused into one pass), and keep a copy of the store after each step in this folder, named \
        by version (<store>.v2.sqlite, …), to open and compare (store diff).
        """, valueName: "folder"))
    var keepSteps: String?
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if explain && !dryRun { throw ValidationError("--explain goes with --dry-run") }
    }

    func run() throws {
        let migrator = try selection.migrator(global, to: to)
        let reporter = MigrationReporter(json: format.json, store: migrator.storeURL)
        if dryRun {
            try dryRun(migrator, reporter: reporter)
            return
        }
        guard try StorePath.check(migrator.storeURL) else {
            throw CommandFailure("\(migrator.storeURL.path): no such store: check the path")
        }
        guard let keepSteps else { return try migrate(migrator, reporter: reporter) }
        let folder = fileURL(keepSteps)
        try PrivateFiles.makeFolder(folder)
        guard case .needsMigration(let plan) = try migrator.state() else { return try migrate(migrator, reporter: reporter) }
        let kept = plan.steps.map { step in
            folder.appendingPathComponent("\(migrator.storeURL.deletingPathExtension().lastPathComponent).\(migrator.label(of: step.destination)).sqlite")
        }
        // Every copy's name is checked before the first step, so a taken one stops nothing half way.
        if let taken = kept.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            throw CommandFailure("\(taken.path): a file is already there; nothing was migrated (move it, or choose another --keep-steps folder)")
        }
        for (step, kept) in zip(plan.steps, kept) {
            let stepMigrator = try selection.migrator(global, to: step.destination.name)
            try migrate(stepMigrator, reporter: MigrationReporter(json: format.json, store: stepMigrator.storeURL))
            try stepMigrator.copyStore(to: kept)
            if format.json {
                try printJSON(["event": "kept", "version": step.destination.name, "path": kept.path])
            } else {
                try StandardOutput.line("kept the store at \(step.destination.name): \(TerminalText.field(kept.path))")
            }
        }
    }

    /// Migrates the store to the migrator's target; Ctrl-C asks whether to cancel.
    private func migrate(_ migrator: StoreMigrator, reporter: MigrationReporter) throws {
        let interrupt = InterruptToCancel()
        defer { interrupt.stop() }
        let plan: MigrationPlan?
        do {
            plan = try migrator.migrateIfNeeded(observer: { event in
                interrupt.waitWhileAsking()
                reporter.handle(event)
            }, cancellation: interrupt.cancellation)
        } catch {
            reporter.endBar()
            guard case MigrationError.cancelled = error else { throw error }
            StandardError.line("uncloudnotes: the upgrade was cancelled; the store is unchanged: \(TerminalText.field(migrator.storeURL.path))")
            throw ExitCode(130)
        }
        if plan == nil {
            try StandardOutput.line(format.json ? #"{"event":"current"}"# : "the store is already at \(migrator.target.name)")
        } else if interrupt.cancellation.isCancelled {
            StandardError.line("uncloudnotes: too late to cancel: the upgrade had finished")
        }
    }

    /// Prints the plan; a migration that would be refused (custom policies this program lacks,
    /// each named once, or no plan at all) is an error, exit 1.
    private func dryRun(_ migrator: StoreMigrator, reporter: MigrationReporter) throws {
        switch try migrator.state() {
        case .needsMigration(let plan):
            if !explain { reporter.handle(.planned(plan)) }
            let missing = migrator.missingPolicies(in: plan)
            guard missing.isEmpty else {
                throw CommandFailure("\(migrator.storeURL.path): the migration would be refused: this program lacks the custom "
                    + "migration polic\(missing.count == 1 ? "y" : "ies") \(missing.joined(separator: ", "))")
            }
            if explain, let explanation = try migrator.explain() {
                try MigrationExplanationOutput(explanation: explanation).write(json: format.json)
            }
        case .cannotMigrate(_, let error):
            throw CommandFailure("\(migrator.storeURL.path): the migration would be refused: \(ErrorText.oneLine(error.description))")
        default:
            try StandardOutput.line(try StoreReport(migrator: migrator).text)
        }
    }
}

struct StoreExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print every object of every entity, with attributes and relationships, to compare stores.",
        discussion: """
            Objects are listed by entity and primary key; relationships name their targets as \
            Entity/primary-key. Binary values are shown by size and SHA-256 (text) or in full \
            (base64, JSON). Dates are local time with the zone's offset, to the millisecond \
            (ISO 8601; --raw-dates: Core Data's seconds). The store is opened read-only at the \
            version that wrote it.

            Examples:
              uncloudnotes store export old.sqlite > old.txt
              uncloudnotes store export --json | jq '.entities.Note | length'
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: StoreSelection
    @OptionGroup var format: OutputFormat
    @Flag(help: "Print dates as the store holds them, seconds since 2001-01-01 UTC, instead of local time with its offset.")
    var rawDates = false

    func run() throws {
        let store = try selection.openReadOnly(global)
        // Closing a read-only store after reading has nothing left to lose.
        defer { try? store.close() }
        let dateText: ((Date) -> String)? = rawDates ? nil : { LocalDates.preciseISO8601($0) }
        try StoreExport(context: ManagedObjectContext(store: store), dateText: dateText).write(json: format.json) { try StandardOutput.line($0) }
    }
}
