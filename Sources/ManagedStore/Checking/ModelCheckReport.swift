/// What `ModelCheck` found: the routes, the findings, the trial migrations, and the verdict.
/// Encodes as the `--json` output.
public struct ModelCheckReport: Sendable, Encodable {
    /// The model's name.
    public var model: String
    /// Where it was read from.
    public var path: String
    /// Every version's name, oldest first, the current one and any after it included.
    public var versions: [String]
    /// The version stores are migrated to.
    public var currentVersion: String
    /// One route per older version, oldest first.
    public var routes: [MigrationRoute]
    /// Every risk found, errors and warnings.
    public var findings: [CheckFinding]
    /// The real migrations run.
    public var trials: [TrialMigration]
    /// Wall time of the whole check.
    public var seconds: Double
    /// Whether warnings fail the check too (`--strict`): the verdict, the JUnit failures and the
    /// exit status then agree on it.
    public var strict = false

    /// How many findings are errors.
    public var errorCount: Int { findings.filter { $0.severity == .error }.count }
    /// How many findings are warnings.
    public var warningCount: Int { findings.filter { $0.severity == .warning }.count }

    /// How many trial migrations ended so: skipped ones were not run (a route through the
    /// app's own policy code, a store already current), so they are not counted as passed.
    public func trialCount(_ outcome: TrialMigration.Outcome) -> Int { trials.filter { $0.outcome == outcome }.count }

    /// "pass", "pass with warnings" or "fail" (with `strict`, warnings fail).
    public var verdict: String {
        errorCount > 0 ? "fail" : warningCount == 0 ? "pass" : strict ? "fail (strict: warnings fail)" : "pass with warnings"
    }

    /// Whether the check fails: errors, or with `strict` warnings too.
    public var fails: Bool { errorCount > 0 || (strict && warningCount > 0) }

    /// The findings among `findings` that fail the check: errors, and with `strict` warnings.
    public func failing(_ findings: [CheckFinding]) -> [CheckFinding] {
        strict ? findings : findings.filter { $0.severity == .error }
    }

    /// The findings about a route: those of its steps, and those of its generated store's trial.
    public func findings(of route: MigrationRoute) -> [CheckFinding] {
        let places = Set(route.steps.map(\.name) + ["generated \(route.label)"])
        return findings.filter { $0.location.map(places.contains) ?? false }
    }

    /// The trial of a route's generated store, if one ran.
    public func trial(of route: MigrationRoute) -> TrialMigration? {
        trials.first { $0.name == "generated \(route.label)" }
    }

    /// The findings that belong to no route: mapping model files and given stores.
    public var otherFindings: [CheckFinding] {
        let places = Set(routes.flatMap { $0.steps.map(\.name) + ["generated \($0.label)"] })
        return findings.filter { !($0.location.map(places.contains) ?? false) }
    }

    private enum CodingKeys: String, CodingKey {
        case model, path, versions, currentVersion, verdict, strict, errors, warnings, trialsPassed, trialsFailed, trialsSkipped
        case routes, findings, trials, seconds
    }

    /// Adds the computed verdict and counts, which scripts need.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(model, forKey: .model)
        try container.encode(path, forKey: .path)
        try container.encode(versions, forKey: .versions)
        try container.encode(currentVersion, forKey: .currentVersion)
        try container.encode(verdict, forKey: .verdict)
        try container.encode(strict, forKey: .strict)
        try container.encode(errorCount, forKey: .errors)
        try container.encode(warningCount, forKey: .warnings)
        try container.encode(trialCount(.passed), forKey: .trialsPassed)
        try container.encode(trialCount(.failed), forKey: .trialsFailed)
        try container.encode(trialCount(.skipped), forKey: .trialsSkipped)
        try container.encode(routes, forKey: .routes)
        try container.encode(findings, forKey: .findings)
        try container.encode(trials, forKey: .trials)
        try container.encode(seconds, forKey: .seconds)
    }

    /// The report as lines of text: per route its steps and what Core Data alone would do, the
    /// trial migration, then the findings and the verdict.
    public var lines: [String] {
        let later = versions.count - routes.count - 1
        var lines = ["\(model) (\(path)): \(versions.count) version(s), current \(currentVersion)"
            + (later > 0 ? " (\(later) later version(s) not checked)" : "")]
        if versions.count == 1 {
            lines.append("  one version only: nothing to migrate")
        } else if routes.isEmpty {
            lines.append("  the current version is the oldest: nothing to migrate")
        }
        for route in routes {
            let verdict = route.isPossible ? "migrates" : route.steps.contains(where: \.isUncheckedHere) ? "not checked here" : "cannot migrate"
            lines.append("\(route.label) -> current: \(verdict)")
            for step in route.steps {
                lines.append("  \(step.name): \(step.how)")
            }
            lines.append("  Core Data alone (one jump): \(route.coreDataDirect)")
            if let trial = trial(of: route) {
                lines.append("  trial: \(Self.summary(of: trial))")
                lines += trial.notes.map { "    (\($0))" }
            }
        }
        for trial in trials where !trial.name.hasPrefix("generated ") {
            lines.append("store \(trial.name)\(trial.label.map { " (\($0))" } ?? ""): \(Self.summary(of: trial))")
        }
        if !findings.isEmpty {
            lines.append("findings:")
            lines += findings.sorted { $0.severity > $1.severity }.map { "  \($0.line)" }
        }
        lines.append("\(verdict): \(errorCount) error(s), \(warningCount) warning(s), \(trialCount(.passed)) trial migration(s) passed, "
            + "\(trialCount(.failed)) failed, \(trialCount(.skipped)) skipped")
        return lines
    }

    /// "passed, 10 object(s) -> 10, 16 fact(s) checked", "skipped: why", "failed, …: what".
    private static func summary(of trial: TrialMigration) -> String {
        let problems = trial.problems.joined(separator: "; ")
        if trial.outcome == .skipped { return "skipped: \(problems)" }
        return "\(trial.outcome.rawValue), \(trial.objectsBefore) object(s) -> \(trial.objectsAfter), \(trial.checks) fact(s) checked"
            + (problems.isEmpty ? "" : ": \(problems)")
    }
}
