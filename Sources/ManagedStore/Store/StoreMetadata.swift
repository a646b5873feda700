import Foundation
internal import GRDB

/// The metadata Core Data keeps in a store's `Z_METADATA` table: which model version wrote it.
///
/// Reading it opens the file read-only and touches nothing else, so a launch can decide whether a
/// store needs migrating (or is refused) before anything is written.
public struct StoreMetadata: Equatable, Sendable {
    /// `Z_UUID`: the store's identity, kept across migrations.
    public var storeUUID: String
    /// `NSStoreType`: always `SQLite` for the stores this engine reads.
    public var storeType: String
    /// Entity name -> 32-byte version hash of the model that wrote the store.
    public var versionHashes: [String: Data]
    /// `NSStoreModelVersionHashesVersion`: the version of Core Data's hashing scheme (3 today).
    public var versionHashesVersion: Int?
    /// `NSStoreModelVersionIdentifiers`: the identifiers of the model that wrote the store.
    public var versionIdentifiers: [String]
    /// `NSPersistenceFrameworkVersion`: the Core Data build that wrote the store, if recorded.
    public var frameworkVersion: Int?
    /// `NSStoreModelVersionHashesDigest`: a digest of all the version hashes, as Base64.
    public var versionHashesDigest: String?
    /// `NSStoreModelVersionChecksumKey`: the model's checksum, as Base64.
    public var versionChecksum: String?

    /// Reads the metadata of the store at `url` without opening it for writing.
    public static func read(storeAt url: URL) throws -> StoreMetadata {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw StoreError(path: url.path, .noSuchFile)
        }
        do {
            let queue = try StoreFiles(url: url).readOnlyQueue()
            // Closing a read-only connection cannot lose anything; the answer is already read.
            defer { try? queue.close() }
            return try queue.read { db in
                guard try db.tableExists("Z_METADATA") else {
                    throw StoreError(path: url.path, .notCoreData)
                }
                guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") else {
                    throw StoreError(path: url.path, .metadataRowMissing)
                }
                // Decoded with errors: a hand-edited row can hold a number where the plist should be.
                guard let plist = try? row.decode(Data?.self, forColumn: "Z_PLIST"),
                      let uuid = try? row.decode(String?.self, forColumn: "Z_UUID") else {
                    throw StoreError(path: url.path, .metadataRowUnreadable)
                }
                return try decode(plist: plist, uuid: uuid, path: url.path)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(path: url.path, .notSQLite)
        } catch let error as DatabaseError {
            throw StoreError(path: url.path, .cannotRead(FailureCause(error)))
        }
    }

    /// Entities whose hash differs from the model's, or that only one side has; empty when the
    /// model can open the store.
    public func mismatchedEntities(for model: ManagedObjectModel) -> [String] {
        let names = Set(versionHashes.keys).union(model.entityVersionHashes.keys)
        return names.filter { versionHashes[$0] != model.entityVersionHashes[$0] }.sorted()
    }

    /// Whether `model` can open the store without a migration: every entity hash matches.
    public func isCompatible(with model: ManagedObjectModel) -> Bool {
        mismatchedEntities(for: model).isEmpty
    }

    fileprivate static func decode(plist data: Data, uuid: String, path: String) throws -> StoreMetadata {
        // Why the plist is unreadable does not help the user: the error below says what is wrong.
        guard let plist = try? PropertyListDecoder().decode(StoreMetadataPlist.self, from: data) else {
            throw StoreError(path: path, .metadataNotAPropertyList)
        }
        guard let hashes = plist.versionHashes else {
            throw StoreError(path: path, .metadataWithoutVersionHashes)
        }
        return StoreMetadata(
            storeUUID: uuid,
            storeType: plist.storeType ?? "",
            versionHashes: hashes,
            versionHashesVersion: plist.versionHashesVersion,
            versionIdentifiers: plist.versionIdentifiers ?? [],
            frameworkVersion: plist.frameworkVersion,
            versionHashesDigest: plist.versionHashesDigest,
            versionChecksum: plist.versionChecksum)
    }
}

extension StoreMetadata {
    /// The metadata a `Z_PLIST` blob holds (as a migration's SQL writes it), nil when the blob
    /// is no such property list: for tools that show SQL, which would otherwise print hex.
    public init?(plist data: Data, uuid: String) {
        guard let metadata = try? Self.decode(plist: data, uuid: uuid, path: "") else { return nil }
        self = metadata
    }

    /// One line for people: the store type, each entity's version hash (first 8 hex digits),
    /// the version identifiers and the framework version.
    public var summary: String {
        let hashes = versionHashes.sorted { $0.key < $1.key }
            .map { "\($0.key) \($0.value.prefix(4).map { String(format: "%02x", $0) }.joined())…" }.joined(separator: ", ")
        var parts = ["\(storeType) store", "entity version hashes: \(hashes)"]
        let identifiers = versionIdentifiers.filter { !$0.isEmpty }
        if !identifiers.isEmpty { parts.append("version identifiers: \(identifiers.joined(separator: ", "))") }
        if let frameworkVersion { parts.append("framework version \(frameworkVersion)") }
        return parts.joined(separator: "; ")
    }
}
