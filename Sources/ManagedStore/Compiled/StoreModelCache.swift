import Foundation
internal import GRDB

/// The model Core Data caches inside every store it writes (table `Z_MODELCACHE`: one row whose
/// `Z_CONTENT` is the compiled model, compressed with raw DEFLATE), which opens a store whose
/// model source is not at hand.
public enum StoreModelCache {
    /// The cached model, checked against the store's metadata; nil when the store has no cache.
    ///
    /// - Throws: `StoreModelCacheError` when the cache cannot be decoded or its hashes are not the
    ///   store's (a model this reader misunderstands is never trusted); `StoreError` when the
    ///   store itself cannot be read.
    public static func read(storeAt url: URL) throws -> ManagedObjectModel? {
        guard let data = try compiledModelData(storeAt: url) else { return nil }
        let model: ManagedObjectModel
        do {
            model = try CompiledModelDecoder.decode(
                data, name: url.deletingPathExtension().lastPathComponent, sourceName: "\(url.path) (Z_MODELCACHE)")
        } catch {
            throw StoreModelCacheError.undecodable(store: url.path, cause: error)
        }
        let mismatched = try StoreMetadata.read(storeAt: url).mismatchedEntities(for: model)
        guard mismatched.isEmpty else {
            throw StoreModelCacheError.hashesDoNotMatch(store: url.path, entities: mismatched)
        }
        return model
    }

    /// The cached compiled model, inflated: the bytes of a `.mom` file. Nil when there is no cache.
    public static func compiledModelData(storeAt url: URL) throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw StoreError(path: url.path, .noSuchFile)
        }
        let compressed: Data?
        do {
            let queue = try StoreFiles(url: url).readOnlyQueue()
            // Closing a read-only connection cannot lose anything; the answer is already read.
            defer { try? queue.close() }
            compressed = try queue.read { db in
                guard try db.tableExists("Z_MODELCACHE") else { return nil }
                return try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            }
        } catch let error as DatabaseError {
            throw StoreError(path: url.path, .cannotRead(FailureCause(error)))
        }
        guard let compressed else { return nil }
        do {
            return try RawInflater.inflate(compressed)
        } catch {
            throw StoreModelCacheError.undecodable(store: url.path, cause: error)
        }
    }
}

/// Why a store's cached model cannot be used.
public enum StoreModelCacheError: Error, CustomStringConvertible {
    /// The cache is damaged or holds something this reader does not understand.
    case undecodable(store: String, cause: Error)
    /// The decoded model does not hash as the store's metadata records.
    case hashesDoNotMatch(store: String, entities: [String])

    public var description: String {
        switch self {
        case .undecodable(let store, let cause):
            "\(store): the model cached in the store (Z_MODELCACHE) cannot be read: \(cause); pass the model with --model"
        case .hashesDoNotMatch(let store, let entities):
            "\(store): the model cached in the store does not match its metadata (entities \(entities.joined(separator: ", "))); pass the model with --model"
        }
    }
}
