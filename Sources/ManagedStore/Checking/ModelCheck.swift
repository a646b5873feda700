import Foundation

/// Checks every migration of a model's history in one run, as a CI job would: for each older
/// version, the route to the current version (`MigrationRoute`), the data-loss and crash risks
/// of every step (`CheckFinding`), and a real migration of a generated store, and of given
/// stores, checked object by object (`TrialMigration`). Knows nothing of any app: the model,
/// its mapping models and the policies the program has are given.
public enum ModelCheck {
    /// What to check besides the model itself.
    public struct Options: Sendable {
        /// The mapping model files (`.xcmappingmodel`) to use.
        public var mappingModelFiles: [URL]
        /// The custom policy classes the program has; a mapping model naming another is an error.
        public var policies: MigrationPolicyRegistry
        /// A folder of stores saved at old versions, migrated (as copies) and checked too.
        public var storesFolder: URL?
        /// Whether to run the trial migrations of generated stores.
        public var generateStores: Bool
        /// Custom policy classes acknowledged as the app's own code, which this program cannot
        /// run (`Module.ClassName` as the mapping model writes it, or `ClassName`): the routes
        /// through them are planned and their trials skipped, instead of an `unknownPolicy` error.
        /// A class `policies` has still runs.
        public var appPolicies: [String]

        /// Options with the given mapping models, policies and stores; trials of generated stores by default.
        public init(mappingModelFiles: [URL] = [], policies: MigrationPolicyRegistry = MigrationPolicyRegistry(),
                    storesFolder: URL? = nil, generateStores: Bool = true, appPolicies: [String] = []) {
            self.mappingModelFiles = mappingModelFiles
            self.policies = policies
            self.storesFolder = storesFolder
            self.generateStores = generateStores
            self.appPolicies = appPolicies
        }

        /// Whether `className` (`Module.ClassName`) is acknowledged as the app's code, by its
        /// full name or by the class name alone.
        public func isAppPolicy(_ className: String) -> Bool {
            appPolicies.contains { $0 == className || $0 == className.split(separator: ".").last.map(String.init) }
        }
    }

    /// Reads the model at `url` and checks it.
    public static func run(modelAt url: URL, options: Options = Options()) throws -> ModelCheckReport {
        let model: VersionedModel
        do {
            model = try ModelFileReader.read(at: url)
        } catch {
            throw ModelCheckError.unreadableModel(path: url.path, cause: error)
        }
        return try run(model: model, path: url.path, options: options)
    }

    /// Checks a model already read; `path` is only for the report.
    public static func run(model: VersionedModel, path: String, options: Options = Options()) throws -> ModelCheckReport {
        let start = ContinuousClock.now
        // A stores folder that cannot be used stops the check before any work.
        let stores = try options.storesFolder.map(storeFiles(in:)) ?? []
        let files = MappingModelFiles(urls: options.mappingModelFiles, model: model)
        let mappingModels = files.mappingModels
        let chain = MigrationChain(model: model, mappingModels: mappingModels)
        let unstorable = unstorableVersions(of: model)
        var findings = files.findings + laterVersions(of: model)
        for link in chain.links {
            // Each reason names its version (a model error starts with the model's name).
            let reasons = Array(Set([link.source.name, link.destination.name].compactMap { unstorable[$0] })).sorted()
            var risks = StepRisks.findings(of: link, named: chain.name(of: link))
            if !reasons.isEmpty {
                risks.removeAll { $0.kind == .chainGap }
                // A warning, as a trial skipped for the app's own policy: the step's risks are still
                // checked from the models, only its trial cannot run; --strict fails on it.
                risks.append(CheckFinding(.warning, .notStorableHere, at: chain.name(of: link),
                                          "this program cannot lay out the store (\(reasons.joined(separator: "; "))), though Core Data may: "
                                            + "the step's risks are checked from the models, but no store is migrated through it, "
                                            + "which is not the same as a gap in the chain"))
            }
            findings += risks
            if case .success(let step) = link.step {
                let known = Set(options.policies.classNames)
                // An acknowledged policy is no finding: its trials are skipped, and say so.
                for name in step.customPolicies where !known.contains(name) && !options.isAppPolicy(name) {
                    findings.append(CheckFinding(.error, .unknownPolicy, at: chain.name(of: link),
                                                 "the mapping model names the custom migration policy \(name), which this program does not "
                                                    + "have: a store of \(link.source.name) is refused; if it is the app's own class, "
                                                    + "acknowledge it with --app-policy \(name) (its routes' trials are then skipped)"))
                }
            }
        }
        let named = Set(chain.links.flatMap { link -> [String] in
            if case .success(let step) = link.step { return step.customPolicies }
            return []
        })
        for policy in options.appPolicies where !named.contains(where: { options.isAppPolicy($0) && ($0 == policy || $0.hasSuffix(".\(policy)")) }) {
            findings.append(CheckFinding(.warning, .appPolicyUnused, at: "--app-policy \(policy)",
                                         "--app-policy \(policy) names no custom policy of the mapping models: check its spelling, "
                                            + "and that --mappings gives the mapping model that uses it"))
        }
        let used = chain.links.compactMap { link -> MappingModel? in
            if case .success(let step) = link.step, case .mappingModel(let mapping) = step.kind { return mapping }
            return nil
        }
        for entry in files.entries where !used.contains(entry.mapping) {
            let versions = MappingModelFiles.versions(of: entry.mapping, in: model).map { "\(chain.label($0.0)) to \(chain.label($0.1))" }
            findings.append(CheckFinding(.warning, .mappingModelUnused, at: entry.url.lastPathComponent,
                                         "maps \(versions ?? "versions this model does not have"), not a step of the chain: "
                                            + "the step-by-step migration never uses it"))
        }
        let routes = chain.links.indices.map {
            MigrationRoute(from: $0, chain: chain, mappingModels: mappingModels, unstorable: Set(unstorable.keys))
        }
        var trials: [TrialMigration] = []
        let trialPolicies = TrialMigration.Policies(registry: options.policies, isAppPolicy: options.isAppPolicy)
        if options.generateStores || !stores.isEmpty {
            let scratchFolder: CheckScratchFolder
            do {
                scratchFolder = try CheckScratchFolder()
            } catch {
                throw ModelCheckError.scratch(path: FileManager.default.temporaryDirectory.path, cause: error)
            }
            defer { scratchFolder.remove() }
            let scratch = scratchFolder.url
            if options.generateStores {
                for route in routes where route.isPossible {
                    guard let version = model.version(named: route.source) else { continue }
                    let folder = scratch.appendingPathComponent("generated-\(route.label)")
                    let url = folder.appendingPathComponent("\(route.label).sqlite")
                    // Objects the route's first mapping model reads no mapping for are refused
                    // (a warning says so): the trial leaves them out, to check the rest.
                    var skipped: [String] = []
                    if let link = chain.links.first(where: { $0.source.name == version.name }), case .success(let step) = link.step,
                       case .mappingModel(let mapping) = step.kind {
                        skipped = StepRisks.unreadEntities(by: mapping, from: link.source, to: link.destination)
                    }
                    do {
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        try RepresentativeStore.write(at: url, model: version, skipping: Set(skipped))
                    } catch {
                        trials.append(TrialMigration(name: "generated \(route.label)", source: route.source, label: route.label,
                                                     outcome: .failed, objectsBefore: 0, objectsAfter: 0,
                                                     problems: ["cannot generate a store of \(route.source): \(ErrorText.oneLine(error))"],
                                                     seconds: 0))
                        continue
                    }
                    var trial = TrialMigration.run(named: "generated \(route.label)", storeAt: url, chain: chain,
                                                   mappingModels: mappingModels, policies: trialPolicies, isGenerated: true)
                    trial.notes += skipped.map { "no \($0) objects generated: no entity mapping reads them (see the warning)" }
                    trials.append(trial)
                }
            }
            for (index, store) in stores.enumerated() {
                let copy: URL
                do {
                    copy = try TrialMigration.copyStore(store, into: scratch.appendingPathComponent("store-\(index)"))
                } catch {
                    throw ModelCheckError.scratch(path: scratch.path, cause: error)
                }
                trials.append(TrialMigration.run(named: store.lastPathComponent, storeAt: copy, chain: chain,
                                                 mappingModels: mappingModels, policies: trialPolicies))
            }
        }
        for trial in trials where trial.outcome == .failed {
            findings.append(CheckFinding(.error, .migrationFailed, at: trial.name, trial.problems.joined(separator: "; ")))
        }
        return ModelCheckReport(model: model.name, path: path, versions: model.versions.map(\.name),
                                currentVersion: model.currentVersionName, routes: routes,
                                findings: findings, trials: trials, seconds: (ContinuousClock.now - start).inSeconds)
    }

    /// Version name -> why this program cannot lay out its store, for the versions it cannot
    /// store (Core Data may: a to-many relationship without an inverse). A step to or from one
    /// is not a gap in the chain, and is reported as what it is.
    static func unstorableVersions(of model: VersionedModel) -> [String: String] {
        var found: [String: String] = [:]
        for version in model.versions {
            do {
                _ = try StoreSchema(model: version)
            } catch {
                found[version.name] = ErrorText.oneLine(error)
            }
        }
        return found
    }

    /// The versions after the current one, which no route starts from: a warning, since a
    /// version added in Xcode but never made current is a common slip.
    private static func laterVersions(of model: VersionedModel) -> [CheckFinding] {
        guard let current = model.versions.firstIndex(where: { $0.name == model.currentVersionName }),
              current < model.versions.count - 1 else { return [] }
        let later = model.versions[(current + 1)...].map(\.name)
        return [CheckFinding(.warning, .versionsAfterCurrent, at: nil,
                             "the current version (.xccurrentversion) is \(model.currentVersionName), version \(current + 1) of "
                                + "\(model.versions.count), and \(later.joined(separator: ", ")) come\(later.count == 1 ? "s" : "") after it: "
                                + "stores are migrated to \(model.currentVersionName) only, and no route from a later version is checked; "
                                + "if one of them should be current, choose it in Xcode (the model's File inspector, Model Version). "
                                + "Versions are ordered by their names, numbers compared as numbers (\(model.versions.map(\.name).joined(separator: ", "))), "
                                + "as Xcode names them (Model, Model 2, Model 3): if that is not their order, rename them so it is")]
    }

    /// The store files in a folder (`.sqlite`, `.store`, `.db`), sorted by name; a folder that
    /// is missing, is a file, or holds none is an error.
    static func storeFiles(in folder: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw ModelCheckError.unreadableStoreFolder(path: folder.path, cause: ModelCheckError.PathProblem.missing)
        }
        guard isFolder.boolValue else {
            throw ModelCheckError.unreadableStoreFolder(path: folder.path, cause: ModelCheckError.PathProblem.notAFolder)
        }
        let stores: [URL]
        do {
            stores = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { ["sqlite", "store", "db", "sqlite3"].contains($0.pathExtension.lowercased()) }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw ModelCheckError.unreadableStoreFolder(path: folder.path, cause: error)
        }
        guard !stores.isEmpty else { throw ModelCheckError.noStores(path: folder.path) }
        return stores
    }

    /// The folders near a model that hold mapping models (`.xcmappingmodel`): the model's own
    /// folder, its parent, and the folders beside the model (a `Mappings` group). For a hint
    /// when a check is given none.
    public static func mappingModelFolders(besideModelAt url: URL) -> [URL] {
        let manager = FileManager.default
        let folder = url.standardizedFileURL.deletingLastPathComponent()
        // Only for a hint: a folder that cannot be listed has no mapping models to suggest.
        let beside = ((try? manager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { candidate in
                var isFolder: ObjCBool = false
                return candidate.pathExtension.isEmpty && !candidate.lastPathComponent.hasPrefix(".")
                    && manager.fileExists(atPath: candidate.path, isDirectory: &isFolder) && isFolder.boolValue
            }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let candidates = [folder, folder.deletingLastPathComponent()] + beside
        var found: [URL] = []
        for candidate in candidates where !found.contains(where: { $0.path == candidate.path }) {
            let names = (try? manager.contentsOfDirectory(atPath: candidate.path)) ?? [] // as above: a hint only
            if names.contains(where: { $0.hasSuffix(".xcmappingmodel") }) { found.append(candidate) }
        }
        return found
    }

    /// The mapping models in a folder (or the one `.xcmappingmodel` given); throws
    /// `ModelCheckError.unreadableMappingFolder` when it cannot be listed.
    public static func mappingModelFiles(in folder: URL) throws -> [URL] {
        try MappingModelFiles.list(in: folder)
    }
}
