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
              uncloudnotes model diff v3 v4
              uncloudnotes model check App.xcdatamodeld --mappings Mappings
            """,
        subcommands: [ShowModelCommand.self, ModelDiffCommand.self, ModelCheckCommand.self])
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
              uncloudnotes model show Mapping.xcmappingmodel --model Model.xcdatamodeld

            A mapping model (.xcmappingmodel) is listed as Xcode's mapping editor shows it: each \
            entity mapping with its source and destination, filter and custom policy, and the \
            value expression of every attribute and relationship. It is read against the model \
            it maps (--model; default: the app's).
            """)

    @Argument(help: ArgumentHelp(
        "A .xcdatamodeld folder or a single .xcdatamodel version, or a compiled .momd folder or .mom file. Default: the app's own model.",
        valueName: "path"))
    var path: String?

    @Option(help: ArgumentHelp("For a mapping model: the model it maps (.xcdatamodeld). Default: the app's.", valueName: "path"))
    var model: String?

    @OptionGroup var format: OutputFormat

    func run() throws {
        let url = try path.map { URL(fileURLWithPath: $0) } ?? UnCloudNotesModel.url()
        if ["xcmappingmodel", "cdm"].contains(url.pathExtension) {
            let models = try model.map { try ModelFileReader.read(at: fileURL($0)) } ?? UnCloudNotesModel.load()
            let report = MappingModelReport(try MappingModelReader.read(at: url, models: models))
            return try format.json ? printJSON(report) : report.lines.map(TerminalText.field).forEach(StandardOutput.line)
        }
        let report = ModelReport(model: try ModelFileReader.read(at: url), source: url.path)
        try StandardOutput.line(format.json ? String(decoding: try report.jsonData(), as: UTF8.self) : report.text)
    }
}
