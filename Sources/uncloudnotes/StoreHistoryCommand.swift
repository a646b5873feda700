import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

struct StoreHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List a store's persistent history: each save, who made it, and what it changed.",
        discussion: """
            Core Data records every save of a store opened with history tracking \
            (NSPersistentHistoryTrackingKey) as a transaction of changes inside the store; the app \
            records its own saves so. Each transaction shows its number (the token to read on \
            from), time, author, context, bundle and process, and counts of inserts, updates and \
            deletes per entity; --changes lists every change: the object, the properties an update \
            changed, the values a deletion preserved. The store is opened read-only.

            Examples:
              uncloudnotes store history
              uncloudnotes store history --since 41 --changes
              uncloudnotes store history Apple.sqlite --model Model.xcdatamodeld --json
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var selection: StoreSelection
    @Option(help: ArgumentHelp("Only the transactions after this one (a transaction number).", valueName: "token"))
    var since: Int64?
    @Option(help: ArgumentHelp("Only the transactions of this author (\"uncloudnotes\" for the app's saves).", valueName: "name"))
    var author: String?
    @Option(help: ArgumentHelp("Only the transactions of this context name.", valueName: "name"))
    var context: String?
    @Flag(help: "List every change of each transaction.") var changes = false
    @OptionGroup var format: OutputFormat

    func validate() throws {
        if let since, since < 0 { throw ValidationError("--since takes a transaction number, 0 or more") }
    }

    func run() throws {
        let store = try selection.openReadOnly(global)
        // Closing a read-only store after reading has nothing left to lose.
        defer { try? store.close() }
        let history = try store.history(after: since, author: author, contextName: context)
        // Sync prunes history every mirror has read: say where what is left begins.
        if !format.json, since == nil, author == nil, context == nil, let first = history.first?.token, first > 1 {
            try StandardOutput.line("history starts at transaction \(first): the earlier ones were pruned (sync prunes what every mirror has exported)")
        }
        let report = HistoryReport(history, changes: changes || format.json) { LocalDates.iso8601($0) }
        if format.json {
            try printJSON(report)
        } else {
            try report.lines(escape: TerminalText.field).forEach(StandardOutput.line)
        }
    }
}
