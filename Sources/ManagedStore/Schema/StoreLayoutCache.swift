import Synchronization

/// A model version's store layout, built the first time a `StoreSchema` of it is made and kept:
/// it is a pure function of the model, and one launch lays out the same version several times
/// (opening the store, planning and running a migration, carrying the search index). Copies of
/// a model share it. It holds no model, so a model and its layout make no cycle.
final class StoreLayoutCache: Sendable {
    /// What `StoreSchema` holds besides the model.
    struct Layout: Sendable {
        let entities: [EntityStorage]
        let tables: [TableStorage]
        let joinTables: [JoinTable]
        let entityIndex: [String: Int]
    }

    /// The layout, or the error laying out failed with (asked again, it fails the same way).
    private let built = Mutex<Result<Layout, any Error>?>(nil)

    /// The layout, made by `make` the first time.
    func layout(_ make: () throws -> Layout) throws -> Layout {
        try built.withLock { built in
            if let built { return try built.get() }
            let made = Result { try make() }
            built = made
            return try made.get()
        }
    }
}
