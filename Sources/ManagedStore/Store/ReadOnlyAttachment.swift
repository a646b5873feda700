import Foundation
internal import GRDB

extension Database {
    /// Attaches the store at `url` as `name` for reading: immutable and read-only when no `-wal`
    /// is beside it (nothing is written beside a store that is only read), else read-only, else
    /// (a URI the connection refuses) by its path.
    func attachForReading(_ url: URL, as name: String) throws {
        do {
            try execute(sql: "ATTACH DATABASE ? AS \(name)", arguments: [StoreFiles(url: url).readOnlyURI ?? (url.absoluteString + "?mode=ro")])
            _ = try Int.fetchOne(self, sql: "SELECT count(*) FROM \(name).sqlite_master")
        } catch {
            // The read-only attach may have failed before attaching anything: nothing to detach then.
            try? execute(sql: "DETACH DATABASE \(name)")
            try execute(sql: "ATTACH DATABASE ? AS \(name)", arguments: [url.path])
        }
    }
}
