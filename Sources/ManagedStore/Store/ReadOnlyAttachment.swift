import Foundation
internal import GRDB

extension Database {
    /// Attaches the store at `url` as `name` for reading: immutable and read-only when no `-wal`
    /// is beside it (nothing is written beside a store that is only read), else read-only, else
    /// (a URI the connection refuses) by its path. `name` is the engine's own (`src`), written as it is.
    func attachForReading(_ url: URL, as name: String) throws {
        do {
            let uri = StoreFiles(url: url).readOnlyURI ?? (url.absoluteString + "?mode=ro")
            try execute(literal: "ATTACH DATABASE \(uri) AS \(sql: name)")
            _ = try Int.fetchOne(self, SQLRequest(literal: "SELECT count(*) FROM \(sql: name).sqlite_master"))
        } catch {
            // The read-only attach may have failed before attaching anything: nothing to detach then.
            try? execute(literal: "DETACH DATABASE \(sql: name)")
            try execute(literal: "ATTACH DATABASE \(url.path) AS \(sql: name)")
        }
    }
}
