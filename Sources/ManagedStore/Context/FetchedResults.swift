/// The result of a batched fetch: all object IDs, rows read a batch at a time on access.
///
/// Only the few most recently used batches are held; earlier ones are released (their objects
/// stay in the context only while something else holds them), so scrolling through 100,000 rows
/// keeps memory flat.
public final class FetchedResults: RandomAccessCollection {
    /// Every matching object's ID, in result order: cheap to hold for any number of rows.
    public let ids: [ObjectID]
    private let batchSize: Int
    private weak var context: ManagedObjectContext?
    private var batches: [Int: [ManagedObject]] = [:]
    private var recentBatches: [Int] = []
    private static let batchesKept = 4

    init(ids: [ObjectID], batchSize: Int, context: ManagedObjectContext) {
        self.ids = ids
        self.batchSize = batchSize
        self.context = context
    }

    /// Results already in memory (a fetch that had to run in memory).
    init(objects: [ManagedObject]) {
        self.ids = objects.map(\.objectID)
        self.batchSize = Swift.max(objects.count, 1)
        self.batches = [0: objects]
        self.recentBatches = [0]
    }

    /// Always 0: results are indexed from the start.
    public var startIndex: Int { 0 }
    /// The number of results.
    public var endIndex: Int { ids.count }

    /// The object at `position`, reading its batch from the store when it is not in memory.
    public subscript(position: Int) -> ManagedObject {
        let batch = position / batchSize
        if batches[batch] == nil { load(batch) }
        touch(batch)
        let objects = batches[batch] ?? []
        let offset = position - batch * batchSize
        // A row deleted by someone else since the IDs were read comes back as an empty fault.
        if offset < objects.count, objects[offset].objectID == ids[position] { return objects[offset] }
        return context?.object(with: ids[position]) ?? objects[Swift.min(offset, Swift.max(objects.count - 1, 0))]
    }

    /// The first error met reading a batch (a damaged row, a disk error), nil while every read
    /// succeeded. Subscripting cannot throw, so the rows of a failed batch read as empty objects;
    /// callers check this after reading the results and report it.
    public private(set) var failure: (any Error)?

    /// How many batches are held in memory now (for tests of the memory bound).
    public var loadedBatchCount: Int { batches.count }

    private func load(_ batch: Int) {
        let range = (batch * batchSize)..<Swift.min((batch + 1) * batchSize, ids.count)
        do {
            batches[batch] = try context?.materialize(Array(ids[range])) ?? []
        } catch {
            batches[batch] = []
            if failure == nil { failure = error }
        }
    }

    private func touch(_ batch: Int) {
        recentBatches.removeAll { $0 == batch }
        recentBatches.append(batch)
        while recentBatches.count > Self.batchesKept {
            batches.removeValue(forKey: recentBatches.removeFirst())
        }
    }
}
