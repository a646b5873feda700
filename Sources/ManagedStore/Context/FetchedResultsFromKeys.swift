import Foundation

extension ManagedObjectContext {
    /// Results over objects found outside a fetch request (a search index beside the store),
    /// in the caller's order, read a batch at a time like `fetchBatched`.
    public func results(for ids: [ObjectID], batchSize: Int) -> FetchedResults {
        FetchedResults(ids: ids, batchSize: max(batchSize, 1), context: self)
    }
}
