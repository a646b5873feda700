import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct StoreDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two stores' objects entity by entity: what was added, removed or changed.",
        discussion: """
            Each store is opened read-only at the version that wrote it (they may differ: a store \
            before and after a migration shows what the migration changed). Objects are matched \
            by primary key, or by a key attribute given with --match Entity.attribute (repeatable), \
            for stores whose keys were numbered differently. Values are compared as store export \
            writes them: dates in local time with the zone's offset (--raw-dates: Core Data's \
            seconds), binary values by size and hash. Marks: + added, - removed, ~ changed.

            Examples:
              uncloudnotes store diff notes.sqlite.v3-backup notes.sqlite
              uncloudnotes store diff a.sqlite b.sqlite --match Note.title --json
              uncloudnotes store diff old.sqlite new.sqlite --model ~/App/Model.xcdatamodeld
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The first store (before).", valueName: "first")) var first: String
    @Argument(help: ArgumentHelp("The second store (after).", valueName: "second")) var second: String
    @Option(help: ArgumentHelp("The model of both stores, instead of the app's (.xcdatamodeld or .momd).", valueName: "path"))
    var model: String?
    @Option(help: ArgumentHelp("Match an entity's objects by this attribute instead of the primary key.", valueName: "Entity.attribute"))
    var match: [String] = []
    @Flag(help: "Compare dates as the stores hold them, seconds since 2001-01-01 UTC.") var rawDates = false
    @OptionGroup var format: OutputFormat

    func validate() throws {
        for pair in match where pair.split(separator: ".").count != 2 {
            throw ValidationError("--match takes Entity.attribute, like Note.title, not \(pair)")
        }
    }

    func run() throws {
        let stores = try [first, second].map { path in
            try StoreSelection.parse([path] + (model.map { ["--model", $0] } ?? [])).openReadOnly(global)
        }
        // Closing read-only stores after reading has nothing left to lose.
        defer { stores.forEach { try? $0.close() } }
        let keys = Dictionary(match.map { pair in
            let parts = pair.split(separator: ".").map(String.init)
            return (parts[0], parts[1])
        }, uniquingKeysWith: { _, last in last })
        let diff = try StoreDiff(ManagedObjectContext(store: stores[0]), ManagedObjectContext(store: stores[1]), match: keys,
                                 dateText: rawDates ? nil : { LocalDates.preciseISO8601($0) })
        if format.json {
            try printJSON(diff)
        } else {
            try diff.lines.map(TerminalText.field).forEach(StandardOutput.line)
        }
    }
}
