import Foundation
import GRDB
import ManagedStore
import TestSupport
import UnCloudNotesKit

/// A store as the next program to open it would find it, read with SQL from a copy of its files
/// (a `-wal` or hot `-journal` applied there, never to the store under test): its notes' titles
/// and bodies in key order, and the app's model version its metadata names.
struct FaultStoreState: Equatable, Sendable, CustomStringConvertible {
    let notes: [[String]]
    let version: String?

    static let model: VersionedModel = {
        do { return try UnCloudNotesModel.load() } catch { fatalError("the app's model does not load: \(error)") }
    }()
    static var newestVersion: String { model.current.name }

    init(of store: URL) throws {
        guard FileManager.default.fileExists(atPath: store.path) else { throw FaultFailure("the store \(store.path) is gone") }
        let scratch = try TemporaryFolder()
        let copy = try Self.copyFiles(of: store, into: scratch)
        let queue = try DatabaseQueue(path: copy.path)
        let (check, rows) = try queue.write { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
             try Row.fetchAll(db, sql: "SELECT ZTITLE, ZBODY FROM ZNOTE ORDER BY Z_PK"))
        }
        try queue.close()
        guard check == "ok" else { throw FaultFailure("the store fails its integrity check: \(check ?? "nothing")") }
        notes = rows.map { [$0[0] ?? "NULL", $0[1] ?? "NULL"] }
        let metadata = try StoreMetadata.read(storeAt: copy)
        version = Self.model.versions.first { metadata.isCompatible(with: $0) }?.name
    }

    var description: String { "\(version ?? "no known version") with notes \(notes.map { $0[0] })" }

    /// Copies the store and the files SQLite reads beside it into the folder, its search index
    /// with them (so its writes are faulted too), and the file a scenario imports, when there is
    /// one beside it.
    static func copyFiles(of store: URL, into folder: TemporaryFolder) throws -> URL {
        let destination = folder.url.appendingPathComponent(store.lastPathComponent)
        let companions = ["", "-wal", "-shm", "-journal"]
        for suffix in companions + companions.map({ "-search" + $0 }) where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: destination.path + suffix)
        }
        let imported = store.deletingLastPathComponent().appendingPathComponent(FaultScenario.importFileName)
        if FileManager.default.fileExists(atPath: imported.path) {
            try FileManager.default.copyItem(at: imported, to: folder.url.appendingPathComponent(FaultScenario.importFileName))
        }
        return destination
    }
}
