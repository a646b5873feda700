internal import GRDB

/// Why an open store refuses writes.
public enum WriteRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The store holds persistent history and was opened without `recordsPersistentHistory`
    /// (Core Data's `NSPersistentHistoryTrackingKey`): Core Data opens such a store read-only.
    case historyTrackingOff
    /// The store was opened read-only: the user cannot write the file or its folder (or asked
    /// to read only). SQLite would refuse the write half-way, naming a statement.
    case openedReadOnly

    /// The reason as a phrase, for the store's refusal of a save.
    public var description: String {
        switch self {
        case .historyTrackingOff:
            "it holds persistent history and was opened without history tracking "
                + "(StoreOptions.recordsPersistentHistory, Core Data's NSPersistentHistoryTrackingKey); "
                + "a write would be missing from its history"
        case .openedReadOnly:
            "you cannot write the file or its folder (make them writable, chmod u+w, to change it)"
        }
    }
}

/// What opening a writable store does about persistent history, as Core Data does it.
enum HistoryTracking {
    /// Creates the history tables when tracking is on and the store has none; with tracking off,
    /// a store that has them refuses writes (the caller reopens it read-only). Migrations leave
    /// history as it is.
    static func prepare(_ options: StoreOptions, in db: Database) throws -> WriteRefusal? {
        guard !options.leavesHistoryAsIs else { return nil }
        if options.recordsPersistentHistory {
            // Checked again under the write lock: another process opening the new store at the
            // same moment may have made them since.
            if try !HistoryTables.exist(in: db) {
                try db.inTransaction(.immediate) {
                    if try !HistoryTables.exist(in: db) { try HistoryTables.create(in: db) }
                    return .commit
                }
            }
            return nil
        }
        return try HistoryTables.exist(in: db) ? .historyTrackingOff : nil
    }
}
