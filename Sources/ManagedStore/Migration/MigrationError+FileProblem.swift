import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MigrationError {
    /// What is wrong with a file or folder a migration reads or writes, as a case callers and
    /// tests match rather than wording to search. A system call's `errno`, or the error that
    /// stopped the work, is kept as the cause; `description` makes the words a user reads.
    public enum FileProblem: Sendable, CustomStringConvertible {
        /// A file is where the migration writes its new store: it never overwrites one.
        case destinationExists
        /// A file of the user's has the exact name of one of the working files a run creates.
        case inTheWay
        /// A folder is where the backup goes, and a backup never replaces a folder.
        case folderAtBackup
        /// The store cannot be written, so it cannot be migrated (it can still be read).
        case readOnlyStore
        /// The store's folder cannot be written, and the working copy, backup and lock go there.
        case readOnlyFolder(folder: String)
        /// `stat` failed, so the store's mode and owner cannot be given to the migrated file.
        case cannotReadOwnership(errno: Int32)
        /// `chmod` failed: the migrated file would not have the store's permissions.
        case cannotSetPermissions(errno: Int32)
        /// `chown` failed: a file left root's would lock the user out of their own store.
        case cannotSetOwner(errno: Int32)
        /// The lock file could not be opened or made, so no migration can be sure it runs alone.
        case cannotCreateLock(errno: Int32)
        /// `flock` failed for a reason other than another process holding the lock.
        case cannotLock(errno: Int32)
        /// Recording the names of the files a run creates in the lock file failed.
        case cannotWriteLock(errno: Int32)
        /// The record in the lock file could not be made durable.
        case cannotSyncLock(errno: Int32)
        /// A store's `-wal` could not be checkpointed into its main file; SQLite's error is kept.
        case cannotFoldWAL(cause: any Error)

        /// The problem in the words a user reads after the path (the only place they are made).
        public var description: String {
            switch self {
            case .destinationExists: "a file is already there; the migration writes a new store"
            case .inTheWay: "a file is in the way of the migration's working files; move it away and run again (the store was not changed)"
            case .folderAtBackup: "a folder is where the backup goes; move it away and run again (the store was not changed)"
            case .readOnlyStore:
                "the store is read-only, so it cannot be migrated; it can still be listed and exported. "
                    + "Make it writable (chmod u+w) to upgrade it"
            case .readOnlyFolder(let folder):
                "the store's folder \(folder) is read-only, so the store cannot be migrated; it can still be listed and "
                    + "exported. Make the folder writable to upgrade it"
            case .cannotReadOwnership(let code): "cannot read the file's owner and mode (\(Self.text(code)))"
            case .cannotSetPermissions(let code): "cannot give the migrated file the store's permissions (\(Self.text(code)))"
            case .cannotSetOwner(let code): "cannot give the file the store's owner (\(Self.text(code)))"
            case .cannotCreateLock(let code): "cannot create the lock file (\(Self.text(code))): check the folder can be written"
            case .cannotLock(let code): "cannot lock (\(Self.text(code)))"
            case .cannotWriteLock(let code): "cannot write the lock file (\(Self.text(code)))"
            case .cannotSyncLock(let code): "cannot sync the lock file (\(Self.text(code)))"
            case .cannotFoldWAL(let cause): "cannot fold its -wal into the main file (\(ErrorText.oneLine(cause)))"
            }
        }

        /// The system's words for an `errno`.
        private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
    }
}
