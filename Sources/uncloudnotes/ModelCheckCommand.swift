import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct ModelCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check every migration of a model to its current version: routes, risks, and real trial migrations.",
        discussion: """
            For each older version: the steps the self-migrating stack takes to the current version \
            (in place, copied, or by a mapping model), what Core Data's own automatic migration \
            would do in one jump, and a trial: a store of that version is generated with edge \
            values in every attribute and every relationship shape, migrated, and checked (counts, \
            carried values, relationships, required values, uniqueness, integrity_check). With \
            --stores, each store in the folder is migrated too, as a copy: the files are never \
            changed. A model given without --mappings that has .xcmappingmodel files beside it \
            (in its folder, the one above, or a folder such as Mappings next to it) gets a hint \
            naming the folder to pass.

            Risks are listed as errors (a launch would fail or a store cannot migrate: a gap in \
            the chain, a required attribute without a default, a type change without a mapping \
            model, an out-of-date mapping model, an unknown custom policy, a failed trial) or \
            warnings (data may be lost: a removed entity or attribute, a narrowed type, a \
            uniqueness constraint added, a renaming identifier that names nothing, versions after \
            the current one).

            Custom migration policies are classes of your app, which this program cannot run: a \
            mapping model naming one is an error until you acknowledge it with --app-policy NAME \
            (repeatable; Module.ClassName or ClassName). Its routes are then still planned and \
            checked, but their trials are skipped (counted as skipped, <skipped/> in JUnit).

            Exit status: 0 no errors (warnings are listed); 3 errors found; 4 warnings only, with \
            --strict; 1 the check could not run (a missing or unreadable model or mapping model \
            folder, a stores folder that is missing or holds no store, a JUnit file that cannot be \
            written); 2 usage.

            Examples:
              uncloudnotes model check
              uncloudnotes model check App.xcdatamodeld --mappings Mappings
              uncloudnotes model check M.xcdatamodeld --stores Stores --junit r.xml
              uncloudnotes model check M.xcdatamodeld --mappings Mappings \\
                --app-policy App.NoteToNoteV2Policy
            """)

    @Argument(help: ArgumentHelp("The model: a .xcdatamodeld (or .momd). Default: the app's own, with its mapping models.",
                                 valueName: "model"))
    var path: String?

    @Option(help: ArgumentHelp("A folder of .xcmappingmodel files (or one) to use. Repeatable, for mapping models in several folders.",
                               valueName: "folder"))
    var mappings: [String] = []

    @Option(help: ArgumentHelp("A folder of stores saved at older versions: each is copied, migrated and checked.", valueName: "folder"))
    var stores: String?

    @Option(help: ArgumentHelp("Also write the results as JUnit XML to this file: one test case per route.", valueName: "file"))
    var junit: String?

    @Option(name: .customLong("app-policy"),
            help: ArgumentHelp("A custom migration policy class of your app (Module.ClassName or ClassName), which this program "
                                   + "cannot run: its routes' trials are skipped, not an error. Repeatable.", valueName: "class"))
    var appPolicies: [String] = []

    @Flag(help: "Fail (exit status 4) on warnings too.")
    var strict = false

    @OptionGroup var format: OutputFormat

    func run() throws {
        // Known before the check runs, rather than after it.
        if let junit { try JUnitReport.checkDestination(fileURL(junit)) }
        let report: ModelCheckReport
        do {
            report = try check()
        } catch {
            // A check that could not run leaves a failing report, never an earlier green one.
            // try?: the check's own error is the one to report, whether or not this write works.
            if let junit { try? write(junit: junit, JUnitReport.xml(couldNotRun: ErrorText.oneLine(error), model: path ?? "the app's model")) }
            throw error
        }
        if format.json {
            try printJSON(report)
        } else {
            try report.lines.map(TerminalText.field).forEach(StandardOutput.line)
        }
        if let junit { try write(junit: junit, JUnitReport.xml(report)) }
        if let path, mappings.isEmpty { try hintMappings(besideModelAt: path) }
        if report.fails {
            try StandardOutput.finish()
            throw ExitCode(report.errorCount > 0 ? 3 : 4)
        }
    }

    /// The check, on the model and folders given (links followed), or on the app's own model
    /// with its mapping models and migration policies. A model of the user's never gets the
    /// app's policies: a class of the same name there is the user's code, not the app's.
    private func check() throws -> ModelCheckReport {
        var files: [URL] = []
        let modelURL: URL
        var policies = MigrationPolicyRegistry()
        if let path {
            modelURL = fileURL(path).resolvingSymlinksInPath()
        } else {
            modelURL = try UnCloudNotesModel.url()
            files = try UnCloudNotesModel.mappingModelURLs()
            policies = UnCloudNotesModel.migrationPolicies
        }
        for folder in mappings { files += try ModelCheck.mappingModelFiles(in: fileURL(folder).resolvingSymlinksInPath()) }
        let options = ModelCheck.Options(mappingModelFiles: files, policies: policies,
                                         storesFolder: stores.map { fileURL($0).resolvingSymlinksInPath() }, appPolicies: appPolicies)
        var report = try ModelCheck.run(modelAt: modelURL, options: options)
        report.strict = strict
        return report
    }

    /// Writes the JUnit report whole or not at all (a draft renamed over it), 0600 as every file
    /// the program writes; a link is followed, a device or pipe written through.
    private func write(junit: String, _ xml: String) throws {
        do {
            try PrivateFiles.replace(fileURL(junit).resolvingSymlinksInPath(), with: Data(xml.utf8))
        } catch ExportError.cannotWrite(_, let code) {
            throw CommandFailure("cannot write the JUnit report \(junit): \(String(cString: strerror(code)))")
        }
    }

    /// A model given without --mappings, with mapping models beside it: a hint on stderr
    /// (stdout may be JSON) naming the folder to pass.
    private func hintMappings(besideModelAt path: String) throws {
        try StandardOutput.finish()
        let cwd = FileManager.default.currentDirectoryPath
        for folder in ModelCheck.mappingModelFolders(besideModelAt: fileURL(path)) {
            let shown = folder.path == cwd ? "." : folder.path.hasPrefix(cwd + "/") ? String(folder.path.dropFirst(cwd.count + 1)) : folder.path
            StandardError.line("hint: \(TerminalText.field(shown)) holds mapping models (.xcmappingmodel) this check did not use: "
                + "pass --mappings \(TerminalText.field(shown))")
        }
    }
}
