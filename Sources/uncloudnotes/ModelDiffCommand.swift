import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct ModelDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changes between two model versions, and how Core Data would migrate each change.",
        discussion: """
            Lists the entities and properties added, removed, renamed (by renaming identifier), \
            retyped, or made optional or required; which entities' version hashes change (what \
            makes Core Data see another version, hash modifiers included); and for each change \
            whether Core Data's lightweight migration infers it (and by which rule) or a mapping \
            model is needed, with the reason. Marks: + inferred, ! needs a mapping model.

            Each version is a version name of the model (v2, "UnCloudNotesDataModel v3") or the \
            path of a model file (.xcdatamodel, .mom).

            Examples:
              uncloudnotes model diff v1 v2
              uncloudnotes model diff v3 v4 --json
              uncloudnotes model diff --model ~/App/Model.xcdatamodeld "Model" "Model 2"
              uncloudnotes model diff Old.xcdatamodel New.xcdatamodel
            """)

    @Argument(help: ArgumentHelp("The version migrated from: a version name, or a model file.", valueName: "from"))
    var from: String
    @Argument(help: ArgumentHelp("The version migrated to.", valueName: "to"))
    var to: String
    @Option(help: ArgumentHelp("The model the version names belong to (.xcdatamodeld or .momd). Default: the app's.",
                               valueName: "path"))
    var model: String?
    @OptionGroup var format: OutputFormat

    func run() throws {
        let versions = try model.map { try ModelFileReader.read(at: fileURL($0)) } ?? UnCloudNotesModel.load()
        let diff = ModelDiff(from: try version(from, in: versions), to: try version(to, in: versions))
        if format.json {
            try printJSON(diff)
        } else {
            try diff.lines.map(TerminalText.field).forEach(StandardOutput.line)
        }
    }

    /// A version name of the model, or else a model file's (current) version.
    private func version(_ name: String, in model: VersionedModel) throws -> ManagedObjectModel {
        if let version = UnCloudNotesModel.version(named: name, in: model) { return version }
        let url = fileURL(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ValidationError("\(name) is neither a version of \(model.name) (\(model.versions.map(\.name).joined(separator: ", "))) nor a model file")
        }
        return try ModelFileReader.read(at: url).current
    }
}
