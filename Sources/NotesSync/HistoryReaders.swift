import Foundation
import UnCloudNotesKit
import ManagedStore

/// The mirrors that read a store's persistent history, each with the last transaction it has
/// exported, in `<store>.history-readers.json` beside the store. History every reader has read
/// is pruned (Core Data's `deleteHistory(before:)`), so a store that syncs does not grow
/// forever; a mirror made later exports every note on its first sync and needs no history.
struct HistoryReaders: Codable {
    /// Mirror folder path -> the last history transaction it exported.
    var exported: [String: Int64] = [:]

    static func url(forStoreAt store: URL) -> URL {
        store.appendingPathExtension("history-readers.json")
    }

    /// Records that `mirror` has exported through `token`, then deletes the history every
    /// recorded mirror still in place has read. - Returns: how many transactions went.
    @discardableResult
    static func record(_ token: Int64, by mirror: URL, in store: PersistentStore) throws(SyncError) -> Int {
        let file = url(forStoreAt: store.url)
        var readers = HistoryReaders()
        do {
            if FileManager.default.fileExists(atPath: file.path) {
                readers = try JSONDecoder().decode(HistoryReaders.self, from: Data(contentsOf: file))
            }
            readers.exported[mirror.standardizedFileURL.path] = token
            // A mirror folder that is gone reads nothing more.
            readers.exported = readers.exported.filter { FileManager.default.fileExists(atPath: $0.key + "/.git") }
            try PrivateFiles.replace(file, with: try JSONEncoder().encode(readers))
        } catch {
            throw .file(path: file.path, error)
        }
        guard let oldestRead = readers.exported.values.min() else { return 0 }
        do {
            return try store.deleteHistory(before: oldestRead + 1)
        } catch {
            throw .store(error)
        }
    }
}
