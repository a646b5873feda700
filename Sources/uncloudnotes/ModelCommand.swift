import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Inspect data models (the app's own, or any Xcode model).",
        discussion: """
            Examples:
              uncloudnotes model show
              uncloudnotes model show ~/App/Model.xcdatamodeld --json
            """,
        subcommands: [ShowModelCommand.self])
}

struct ShowModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a model's versions, entities, properties and version hashes.",
        discussion: """
            Each version is listed with its entities (parent entity, abstract flag), their \
            properties (type, optional, default value, value transformer, relationship details) and \
            the entity version hashes, in hex, that Core Data stores in a store's metadata to \
            recognise which model version wrote it. The current version is marked with '*'.

            Examples:
              uncloudnotes model show
              uncloudnotes model show ~/Projects/App/Model.xcdatamodeld --json
              uncloudnotes model show "Model.xcdatamodeld/Model v2.xcdatamodel"
            """)

    @Argument(help: ArgumentHelp(
        "A .xcdatamodeld folder or a single .xcdatamodel version. Default: the app's own model.",
        valueName: "path"))
    var path: String?

    @Flag(help: "Print JSON (stable keys, documented in docs/model-files.md) instead of text.")
    var json = false

    func run() throws {
        let url = try path.map { URL(fileURLWithPath: $0) } ?? UnCloudNotesModel.url()
        let report = ModelReport(model: try ModelFileReader.read(at: url), source: url.path)
        if json {
            print(String(decoding: try report.jsonData(), as: UTF8.self))
        } else {
            print(report.text)
        }
    }
}
