import ArgumentParser
import Foundation
import ManagedStore
import UnCloudNotesKit

/// Options every command takes: which store, and which version of the app to run as.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The notes store to use. Default: $XDG_DATA_HOME/uncloudnotes/UnCloudNotesDataModel.sqlite.",
        valueName: "path"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp(
        "Run as this version of the app (v1, v2, v3 or v4): new stores are created at it, older stores are upgraded to it, newer ones refused. Default: v4.",
        valueName: "version"))
    var modelVersion: String?

    @Flag(name: .long, help: "Log every SQL statement the engine runs to stderr (as MANAGEDSTORE_SQL_DEBUG=1 does).")
    var sqlDebug = false

    /// Turns the SQL log on for everything this run opens.
    func validate() throws {
        if sqlDebug { setenv("MANAGEDSTORE_SQL_DEBUG", "1", 1) }
    }

    /// The store path: an explicit argument, else `--store`, else the default location.
    func storeURL(_ argument: String? = nil) -> URL {
        if let path = argument ?? store { return fileURL(path) }
        return StoreLocation.defaultURL()
    }

    func stack(_ argument: String? = nil) throws -> UnCloudNotesStack {
        try UnCloudNotesStack(storeURL: storeURL(argument), versionName: modelVersion)
    }
}
