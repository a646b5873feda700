import ArgumentParser
import Foundation
import Logging
import ManagedStore
import UnCloudNotesKit

/// Options every command takes: which store, and which version of the app to run as.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The notes store to use. Default: UnCloudNotesDataModel.sqlite in $XDG_DATA_HOME/uncloudnotes (~/.local/share/uncloudnotes).",
        valueName: "path"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp(
        "Run as this version of the app (v1 to v5): new stores are created at it, older stores are upgraded to it, newer ones refused. Default: v5.",
        valueName: "version"))
    var modelVersion: String?

    @Flag(name: .long, help: "Make the folders of a new store given with --store when they do not exist (0700); without it a missing folder is refused, as a mistyped path should be.")
    var createFolders = false
    @Flag(name: .long, help: "Log every SQL statement the engine runs to stderr (as MANAGEDSTORE_SQL_DEBUG=1 does).")
    var sqlDebug = false

    /// How this run opens stores: `--sql-debug` (or `MANAGEDSTORE_SQL_DEBUG=1`, read here at the
    /// program's edge for runs where no flag can be passed) turns the SQL log on, to stderr or to
    /// the full-screen app's `--log` file, where stderr goes then. The engine only takes the value.
    var storeOptions: StoreOptions {
        var options = StoreOptions()
        if sqlDebug || ProcessInfo.processInfo.environment["MANAGEDSTORE_SQL_DEBUG"] == "1" {
            options.sqlLogger = Logger(label: "ManagedStore.SQL")
        }
        return options
    }

    /// The store path: an explicit argument, else `--store`, else the default location.
    func storeURL(_ argument: String? = nil) -> URL {
        if let path = argument ?? store { return fileURL(path) }
        return StoreLocation.defaultURL()
    }

    func stack(_ argument: String? = nil) throws -> UnCloudNotesStack {
        try UnCloudNotesStack(storeURL: storeURL(argument), versionName: modelVersion, options: storeOptions)
    }
}
