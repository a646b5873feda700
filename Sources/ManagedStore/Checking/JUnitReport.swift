import Foundation

/// A `ModelCheckReport` as JUnit XML, the format CI services show as test results: one test
/// case per route (failed when an error concerns one of its steps or its trial migration,
/// skipped when its trial was not run), one per given store, one for findings about mapping
/// model files and one for findings about the model's versions, when there are any.
public enum JUnitReport {
    /// The XML document.
    public static func xml(_ report: ModelCheckReport) -> String {
        var cases: [String] = []
        for route in report.routes {
            let findings = report.findings(of: route)
            var output = route.steps.map { "\($0.name): \($0.how)" } + ["Core Data alone: \(route.coreDataDirect)"]
            if let trial = report.trial(of: route) {
                output.append("trial migration: \(trial.outcome.rawValue)" + (trial.problems.isEmpty ? "" : ": " + trial.problems.joined(separator: "; ")))
            }
            output += findings.map(\.line)
            cases.append(testCase(name: "\(route.label) -> \(report.currentVersion)", className: report.model,
                                  seconds: report.trial(of: route)?.seconds ?? 0,
                                  errors: report.failing(findings),
                                  skipped: skipReason(report.trial(of: route)) ?? uncheckedReason(route),
                                  output: output))
        }
        for trial in report.trials where !trial.name.hasPrefix("generated ") {
            let findings = report.findings.filter { $0.location == trial.name }
            cases.append(testCase(name: "store \(trial.name)", className: report.model, seconds: trial.seconds,
                                  errors: findings, skipped: skipReason(trial),
                                  output: (trial.outcome == .skipped ? ["skipped"]
                                           : ["\(trial.outcome.rawValue): \(trial.objectsBefore) -> \(trial.objectsAfter) object(s)"]) + trial.problems))
        }
        let trialNames = Set(report.trials.map(\.name))
        let others = report.otherFindings.filter { !trialNames.contains($0.location ?? "") }
        // Findings with no place are about the model as a whole (its versions); the others name a mapping model file.
        for (name, findings) in [("mapping models", others.filter { $0.location != nil }), ("model versions", others.filter { $0.location == nil })]
        where !findings.isEmpty {
            cases.append(testCase(name: name, className: report.model, seconds: 0,
                                  errors: report.failing(findings), skipped: nil, output: findings.map(\.line)))
        }
        let failures = cases.filter { $0.contains("<failure") }.count
        let skipped = cases.filter { $0.contains("<skipped") }.count
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="model check" tests="\(cases.count)" failures="\(failures)" skipped="\(skipped)" time="\(report.seconds)">
            <testsuite name="\(escape("model check \(report.model)"))" tests="\(cases.count)" failures="\(failures)" errors="0" \
            skipped="\(skipped)" time="\(report.seconds)">
            \(cases.joined(separator: "\n"))
            </testsuite>
            </testsuites>

            """
    }

    /// The report of a check that could not run (an unreadable model, say): one failing case
    /// with the reason, so a CI job's published results say why it is red, never an old report.
    public static func xml(couldNotRun reason: String, model: String) -> String {
        """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="model check" tests="1" failures="1" skipped="0" time="0">
            <testsuite name="\(escape("model check \(model)"))" tests="1" failures="1" errors="0" skipped="0" time="0">
              <testcase name="model check" classname="\(escape(model))" time="0">
                <failure message="\(escape(reason))" type="couldNotRun"></failure>
              </testcase>
            </testsuite>
            </testsuites>

            """
    }

    /// What the report's path names, for the check before the run (the command writes the report).
    private enum Destination {
        /// A regular file, or nothing yet: a draft beside it is renamed over it (a link is
        /// followed to its file, and stays a link).
        case replace(URL)
        /// Anything else (a device, a pipe: `/dev/stdout`): written through, never replaced.
        case writeThrough(URL)
    }

    private static func destination(_ url: URL) throws -> Destination {
        var status = stat()
        if stat(url.path, &status) != 0 {
            // Nothing there; or a link to nothing, which writing through creates.
            var link = stat()
            return lstat(url.path, &link) == 0 ? .writeThrough(url) : .replace(url)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw ModelCheckError.unwritableReport(path: url.path, cause: ModelCheckError.PathProblem.aFolder)
        case S_IFREG: return .replace(url.resolvingSymlinksInPath())
        default: return .writeThrough(url)
        }
    }

    /// Checks, before the check runs, that a report can be written at `url`: not a folder; a
    /// file in a folder that exists and can be written, or a device or pipe that can be
    /// written. Throws `ModelCheckError.unwritableReport`.
    public static func checkDestination(_ url: URL) throws {
        let manager = FileManager.default
        switch try destination(url) {
        case .writeThrough(let target):
            guard manager.isWritableFile(atPath: target.path) || !manager.fileExists(atPath: target.path) else {
                throw ModelCheckError.unwritableReport(path: url.path, cause: ModelError(file: target.path, reason: .permissionDenied))
            }
        case .replace(let file):
            let folder = file.deletingLastPathComponent()
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
                throw ModelCheckError.unwritableReport(path: url.path, cause: ModelError(file: folder.path, reason: .noSuchFolder))
            }
            guard isFolder.boolValue else {
                throw ModelCheckError.unwritableReport(path: url.path, cause: ModelError(file: folder.path, reason: .notAFolder))
            }
            guard manager.isWritableFile(atPath: folder.path) else {
                throw ModelCheckError.unwritableReport(path: url.path, cause: ModelError(file: folder.path, reason: .permissionDenied))
            }
        }
    }

    /// Why a trial was not run, when it was not.
    private static func skipReason(_ trial: TrialMigration?) -> String? {
        guard let trial, trial.outcome == .skipped else { return nil }
        return trial.problems.isEmpty ? "trial migration not run" : trial.problems.joined(separator: "; ")
    }

    /// Why a route was not checked: a step to or from a version this program cannot store.
    private static func uncheckedReason(_ route: MigrationRoute) -> String? {
        route.steps.first(where: \.isUncheckedHere).map { "not checked here: \($0.how)" }
    }

    /// A test case: failed when there are errors, else skipped when `skipped` says why.
    private static func testCase(name: String, className: String, seconds: Double, errors: [CheckFinding], skipped: String?,
                                 output: [String]) -> String {
        var lines = ["  <testcase name=\"\(escape(name))\" classname=\"\(escape(className))\" time=\"\(seconds)\">"]
        if !errors.isEmpty {
            lines.append("    <failure message=\"\(escape(errors[0].message))\" type=\"\(errors[0].kind.rawValue)\">"
                + escape(errors.map(\.line).joined(separator: "\n")) + "</failure>")
        } else if let skipped {
            lines.append("    <skipped message=\"\(escape(skipped))\"/>")
        }
        lines.append("    <system-out>\(escape(output.joined(separator: "\n")))</system-out>")
        lines.append("  </testcase>")
        return lines.joined(separator: "\n")
    }

    /// Text safe in XML attributes and content; characters XML 1.0 forbids become U+FFFD.
    public static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                let allowed = scalar.value >= 0x20 && !(0xD800...0xDFFF).contains(scalar.value) && scalar.value != 0xFFFE && scalar.value != 0xFFFF
                result.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return result
    }
}
