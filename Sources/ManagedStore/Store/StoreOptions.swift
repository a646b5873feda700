import Foundation
import Logging

/// How a store file is opened.
public struct StoreOptions: Sendable {
    public enum JournalMode: String, Sendable, CaseIterable {
        /// Core Data's default: writes go to `<store>-wal`, readers never block writers.
        case wal = "WAL"
        /// One file and a rollback journal during writes: handy when inspecting a store by hand.
        case delete = "DELETE"
        case truncate = "TRUNCATE"
    }

    public var journalMode: JournalMode
    public var isReadOnly: Bool
    /// When set, every SQL statement the engine runs is logged here (at `.info`), like Core
    /// Data's `-com.apple.CoreData.SQLDebug 1`. Off by default: the engine reads no environment,
    /// the program decides (`uncloudnotes --sql-debug`, or its `MANAGEDSTORE_SQL_DEBUG=1`).
    public var sqlLogger: Logger?
    /// When set, every SQL statement the engine runs is kept here, parameters expanded
    /// (`store migrate --dry-run --explain`).
    public var sqlRecorder: SQLRecorder?
    /// How long a statement waits for another process's write lock before failing with "database
    /// is locked". Saves of other processes take milliseconds; the default is generous so that
    /// many processes adding notes at once all succeed.
    public var busyTimeout: TimeInterval
    public static let defaultBusyTimeout: TimeInterval = 10
    /// Core Data's `NSPersistentHistoryTrackingKey`: every save records a transaction of its
    /// changes in the store (`PersistentStore.history`), and a store without history tables gets
    /// them when first opened so. Off, a store that holds history (Apple's or the engine's) opens
    /// read-only, as Core Data opens it: a write would leave a gap that history readers (Apple's
    /// sync among them) could never see.
    public var recordsPersistentHistory: Bool
    /// Lets a migration change a store's model without recording history or being refused for
    /// it: migrations keep the history as it is and record none of their own.
    var leavesHistoryAsIs = false

    public init(journalMode: JournalMode = .wal, isReadOnly: Bool = false,
                sqlLogger: Logger? = nil, busyTimeout: TimeInterval = StoreOptions.defaultBusyTimeout,
                recordsPersistentHistory: Bool = false) {
        self.journalMode = journalMode
        self.isReadOnly = isReadOnly
        self.sqlLogger = sqlLogger
        self.busyTimeout = busyTimeout
        self.recordsPersistentHistory = recordsPersistentHistory
    }
}
